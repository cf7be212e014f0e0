import { registerEnglish } from '../registry.ts';

/**
 * English messages of the copy/move destination picker. They travel with the code that shows them, not in the entry chunk:
 * every module that uses a `picker.*` key imports this one (src/i18n/parts.test.ts checks it), and importing
 * it registers the messages before any of them is rendered. The Chinese catalog stays whole (zh-cn.ts).
 */
export const pickerEn = {
  'picker.browse': 'Browse…',
  'picker.title': 'Choose the destination folder',
  'picker.path': 'Destination path',
  'picker.allBuckets': 'Buckets',
  'picker.buckets': 'Buckets',
  'picker.loadingBuckets': 'Loading the bucket list…',
  'picker.bucketsUnreadable': 'The bucket list cannot be read here: type the bucket’s name in the Destination bucket field instead.',
  'picker.noBuckets': 'No buckets.',
  'picker.filterBuckets': 'Filter buckets',
  'picker.noMatch': 'No bucket name contains “{filter}”.',
  'picker.otherZone': 'zone {bucketZone}: copies stay within {zone}',
  'picker.folders': 'Folders in {location}',
  'picker.loadingFolders': 'Loading folders…',
  'picker.noFolders': 'No folders here.',
  'picker.more': 'Show more folders',
  'picker.newFolder': 'New folder',
  'picker.newFolderHint': 'Type a name and open it; the copy creates it.',
  'picker.newFolderInvalid': 'Type a folder name without “/”.',
  'picker.openNew': 'Open',
  'picker.use': 'Use {location}',
  'picker.cancel': 'Back',
  'picker.finalKey': 'Will be written to {location}',
  'picker.finalKeys': 'Will be written as',
  'picker.unknownDestination': 'Could not check whether an object already exists at {key} ({reason}). Writing anyway replaces whatever is there.',
  'picker.writeAnyway': 'Write anyway',
} as const satisfies Record<`picker.${string}`, string>;

registerEnglish(pickerEn);
