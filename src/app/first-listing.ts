import type { QueryClient } from '@tanstack/react-query';
import type { ClientOptions } from '../api/client.ts';
import { ROUTE_PATHS, readQueryParam } from '../hooks/browse-location.ts';
import type { Session } from '../hooks/session.ts';
import { matchPath } from '../lib/router.tsx';

/**
 * A deep link into a bucket (or a reload of one) asks for the listing's first page as soon as the session
 * is known, not after the route's code has loaded and rendered (and a deep link to one upload, for the page
 * of parts it shows): the request runs while the page renders,
 * and the object list finds it in the query cache (same query, same key) instead of sending its own. A deep
 * link to one upload also starts the scan of all its parts (the totals) at once.
 * Anything else (another screen, no session) asks for nothing. A failure is left in the cache for the list
 * to show and retry, as if the list had asked itself.
 *
 * Resolves as soon as the request has been handed to the browser (or once it is settled without being sent),
 * not when it is answered: main.tsx renders after that. Rendering first would hold the request back behind
 * the first render, one long task of the main thread.
 */
/**
 * Starts loading the code prefetchFirstListing will need for this address, before the view's own code is
 * asked for (main.tsx calls it first), so that code is not queued behind the view's many files.
 */
export function preloadFirstListing(pathname: string): void {
  if (matchPath(ROUTE_PATHS.uploads, pathname)) {
    void Promise.all([import('../api/client.ts'), import('../features/in-progress-uploads/location.ts'), import('../features/in-progress-uploads/queries.ts')]).catch(() => undefined);
  } else if (matchPath(ROUTE_PATHS.bucket, pathname)) {
    void Promise.all([import('../api/client.ts'), import('../features/object-browser/queries.ts')]).catch(() => undefined);
  }
}

export async function prefetchFirstListing(queryClient: QueryClient, session: Session | null, location: { pathname: string; search: string }): Promise<void> {
  if (!session) return;
  let handedOver = (): void => undefined;
  const sent = new Promise<void>((resolve) => {
    handedOver = resolve;
  });
  const prefetched = prefetch(queryClient, session, location, { onSend: () => handedOver() });
  await Promise.race([sent, prefetched]);
}

async function prefetch(queryClient: QueryClient, session: Session, location: { pathname: string; search: string }, options: ClientOptions): Promise<void> {
  const uploads = matchPath(ROUTE_PATHS.uploads, location.pathname);
  if (uploads) {
    await prefetchPartsPage(queryClient, session, uploads, location.search, options);
    return;
  }
  const match = matchPath(ROUTE_PATHS.bucket, location.pathname);
  const zone = match?.['zone'];
  const bucket = match?.['bucket'];
  if (!zone || !bucket) return;
  const prefix = readQueryParam(location.search, 'prefix') ?? '';
  const filter = readQueryParam(location.search, 'filter') ?? '';
  const flat = readQueryParam(location.search, 'flat') === '1';
  // The same modules the bucket route loads (already on their way: main.tsx preloads the route).
  const [{ createClient }, { folderListingQuery }] = await Promise.all([import('../api/client.ts'), import('../features/object-browser/queries.ts')]);
  await queryClient.prefetchInfiniteQuery(folderListingQuery(createClient(session.connection, options), zone, bucket, prefix + filter, flat));
}

/** A deep link to one upload's parts: the page it shows, asked for the same way (limit, marker) as its table. */
async function prefetchPartsPage(
  queryClient: QueryClient,
  session: Session,
  params: Readonly<Record<string, string | undefined>>,
  search: string,
  options: ClientOptions,
): Promise<void> {
  const [{ createClient }, { parseUploadsLocation, partsLimitOf }, { partScanQuery, partsPageQuery }] = await Promise.all([
    import('../api/client.ts'),
    import('../features/in-progress-uploads/location.ts'),
    import('../features/in-progress-uploads/queries.ts'),
  ]);
  const location = parseUploadsLocation(params, search);
  if (!location.upload || location.key === null || !location.zone || !location.bucket) return;
  const ref = { zone: location.zone, bucket: location.bucket, key: location.key, uploadId: location.upload };
  const client = createClient(session.connection, options);
  const page = queryClient.prefetchQuery(partsPageQuery(client, ref, partsLimitOf(location), location.after));
  // The totals (every page of parts) start now too, not once the view has rendered: their first page is
  // the one just asked for when the view shows page 1 at the scan's limit (one request, shared).
  void queryClient.prefetchQuery(partScanQuery(client, queryClient, ref));
  await page;
}
