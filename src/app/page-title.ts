import { useEffect } from 'react';
import { ROUTE_PATHS, readQueryParam } from '../hooks/browse-location.ts';
import type { I18n } from '../i18n/i18n.tsx';
import { matchPath, type Location } from '../lib/router.tsx';

/** What the tab says for a view: "demo-documents/reports — QingStor Console"; the bare title on the way in. */
export function pageTitle(location: Pick<Location, 'pathname' | 'search'>, t: I18n['t']): string {
  const page = pageName(location, t);
  return page === null ? t('app.title') : t('app.titleWith', { page });
}

function pageName({ pathname, search }: Pick<Location, 'pathname' | 'search'>, t: I18n['t']): string | null {
  if (matchPath(ROUTE_PATHS.home, pathname)) return t('app.page.buckets');
  if (matchPath(ROUTE_PATHS.connect, pathname)) return t('app.page.connect');
  if (matchPath(ROUTE_PATHS.allUploads, pathname)) return t('app.page.allUploads');
  if (matchPath(ROUTE_PATHS.jobs, pathname)) return t('app.page.jobs');
  const uploads = matchPath(ROUTE_PATHS.uploads, pathname);
  if (uploads) return t('app.page.uploads', { bucket: uploads['bucket'] ?? '' });
  const bucket = matchPath(ROUTE_PATHS.bucket, pathname);
  if (bucket) {
    const object = readQueryParam(search, 'object');
    const prefix = (readQueryParam(search, 'prefix') ?? '').replace(/\/$/, '');
    const name = bucket['bucket'] ?? '';
    if (object) return `${name}/${object}`;
    return prefix === '' ? name : `${name}/${prefix}`;
  }
  return t('app.page.notFound');
}

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
