import { registerEnglish } from '../registry.ts';

/**
 * English messages of the bucket list and of the Public badge (list and sidebar). They load with those views,
 * not in the entry chunk. The Chinese catalog stays whole (zh-cn.ts).
 */
export const bucketsEn = {
  'buckets.title': 'Buckets',
  'buckets.count.one': '{count} bucket',
  'buckets.count.other': '{count} buckets',
  'buckets.empty': 'No buckets.',
  'buckets.name': 'Name',
  'buckets.created': 'Created',
  'buckets.openByName': 'Open a bucket by name',
  'buckets.openByNameZone': 'Zone',
  'buckets.openByNameBucket': 'Bucket name',
  'buckets.open': 'Open',
  'buckets.listUnavailable': 'The bucket list is not available with this connection.',
  'buckets.public': 'Public',
  'buckets.publicHint': 'Anyone who knows an object’s name can read it without signing in.',
  'buckets.access': 'Access',
  'buckets.zoneColumn': 'Zone',
  'buckets.search': 'Search buckets',
  'buckets.noMatch': 'No bucket name contains “{search}”.',
  'buckets.noMatchHint': 'Bucket names are lower case; try a shorter part of the name.',
  'buckets.clearSearch': 'Clear search',
  'buckets.emptyHint': 'A bucket holds your objects. Create one to upload files.',
  'buckets.clearFilter': 'Clear filter',
  'buckets.folderEmptyHint': 'Drop files here, or use Upload, to add objects to this folder.',
  'buckets.openByNameHint': 'For a bucket this connection may open but not list.',
  // The bucket sidebar (src/app/bucket-sidebar.tsx, loaded beside the first view).
  'buckets.sidebar.label': 'Buckets by zone',
  'buckets.sidebar.filter': 'Filter buckets',
  'buckets.sidebar.allUploads': 'In-progress uploads, all buckets',
  'buckets.sidebar.jobs': 'Jobs',
  'buckets.sidebar.across': 'Across buckets',
  'buckets.sidebar.zone': 'Zone {zone}',
  'buckets.sidebar.noMatch': 'No bucket matches “{filter}”.',
  'buckets.sidebar.empty': 'No buckets.',
  'buckets.sidebar.unavailable': 'The bucket list is not available with this connection.',
} as const satisfies Record<`buckets.${string}`, string>;

registerEnglish(bucketsEn);
