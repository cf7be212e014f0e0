import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../api/client.ts';
import type { Connection } from '../api/connection.ts';
import { folderListingQuery } from '../features/object-browser/queries.ts';
import { partScanQuery, scanProgressStore } from '../features/in-progress-uploads/queries.ts';
import type { Session } from '../hooks/session.ts';
import { prefetchFirstListing } from './first-listing.ts';

const connection: Connection = {
  endpoint: 'https://qingstor.com',
  zoneInHost: true,
  style: 'path',
  credentials: { accessKeyId: 'EXAMPLEACCESSKEYID01', secretAccessKey: 'exampleSecretAccessKey0123456789abcdefXYZ' },
  defaultZone: 'pek3a',
};
const session: Session = { mode: 'endpoint', connection, zones: ['pek3a'] };
const at = (url: string) => {
  const { pathname, search } = new URL(url, 'https://console.test');
  return { pathname, search };
};

/** A fetch whose answers the test gives when it wants: records each request. */
function heldFetch() {
  const requests: Array<{ url: string; answer(response: Response | Error): void }> = [];
  const fetch = (url: string | URL): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      requests.push({ url: String(url), answer: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
    });
  vi.stubGlobal('fetch', fetch);
  return requests;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('prefetchFirstListing', () => {
  it("resolves once a bucket's first page is on its way, before it is answered, and the answer lands in the list's query", async () => {
    const requests = heldFetch();
    const queryClient = new QueryClient();
    await prefetchFirstListing(queryClient, session, at('/buckets/pek3a/photos?prefix=a/&flat=1'));
    expect(requests).toHaveLength(1);
    const url = new URL(requests[0]?.url ?? '');
    expect(url.pathname).toBe('/photos');
    expect(url.searchParams.get('prefix')).toBe('a/');
    expect(url.searchParams.has('delimiter')).toBe(false);

    const body = { name: 'photos', prefix: 'a/', keys: [{ key: 'a/1.jpg', size: 3 }], has_more: false };
    requests[0]?.answer(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
    const query = folderListingQuery(createClient(connection), 'pek3a', 'photos', 'a/', true);
    await vi.waitFor(() => expect(queryClient.getQueryState(query.queryKey)?.status).toBe('success'));
    expect(queryClient.getQueryData(query.queryKey)?.pages[0]?.keys.map((k) => k.key)).toEqual(['a/1.jpg']);
  });

  it('asks for the page of parts it shows and starts the totals on a deep link to an upload', async () => {
    const requests = heldFetch();
    await prefetchFirstListing(new QueryClient(), session, at('/buckets/pek3a/photos/uploads?key=big.bin&upload=u-1'));
    await vi.waitFor(() => expect(requests).toHaveLength(2));
    const urls = requests.map((r) => new URL(r.url));
    for (const url of urls) {
      expect(url.pathname).toBe('/photos/big.bin');
      expect(url.searchParams.get('upload_id')).toBe('u-1');
      expect(url.searchParams.has('part_number_marker')).toBe(false);
    }
    // The table's page (the default 100 parts) and the scan's first page (the largest the API allows).
    expect(urls.map((u) => u.searchParams.get('limit')).sort()).toEqual(['100', '1000']);
  });

  it('runs the totals to the end at boot, with no view mounted, sharing page 1 with the table', async () => {
    const requests = heldFetch();
    const queryClient = new QueryClient();
    await prefetchFirstListing(queryClient, session, at('/buckets/pek3a/photos/uploads?key=big.bin&upload=u-1&limit=1000'));
    expect(requests).toHaveLength(1);
    const parts = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ part_number: from + i, size: 5, etag: `"e${from + i}"` }));
    const answer = (index: number, body: unknown) =>
      requests[index]?.answer(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
    answer(0, { count: 1200, object_parts: parts(0, 1000) });
    // The next page is asked for by the scan alone: nothing has rendered.
    await vi.waitFor(() => expect(requests).toHaveLength(2));
    expect(new URL(requests[1]?.url ?? '').searchParams.get('part_number_marker')).toBe('999');
    answer(1, { count: 1200, object_parts: parts(1000, 200) });
    const client = createClient(connection);
    const ref = { zone: 'pek3a', bucket: 'photos', key: 'big.bin', uploadId: 'u-1' };
    const scan = partScanQuery(client, queryClient, ref);
    await vi.waitFor(() => expect(queryClient.getQueryState(scan.queryKey)?.status).toBe('success'));
    expect(queryClient.getQueryData(scan.queryKey)?.numbers.length).toBe(1200);
    // The view finds the progress the boot scan reported.
    expect(scanProgressStore(client, queryClient, ref).get()).toEqual({ parts: 1200, bytes: 6000, pages: 2 });
    expect(requests).toHaveLength(2);
  });

  it('asks for nothing without a session or away from a bucket', async () => {
    const requests = heldFetch();
    await prefetchFirstListing(new QueryClient(), null, at('/buckets/pek3a/photos'));
    await prefetchFirstListing(new QueryClient(), session, at('/'));
    await prefetchFirstListing(new QueryClient(), session, at('/buckets/pek3a/photos/settings'));
    expect(requests).toEqual([]);
  });

  it('resolves when the request fails, leaving the failure for the list to show', async () => {
    const requests = heldFetch();
    const queryClient = new QueryClient();
    const done = prefetchFirstListing(queryClient, session, at('/buckets/pek3a/photos'));
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    requests[0]?.answer(new TypeError('Failed to fetch'));
    await done;
    const query = folderListingQuery(createClient(connection), 'pek3a', 'photos', '', false);
    await vi.waitFor(() => expect(queryClient.getQueryState(query.queryKey)?.status).toBe('error'));
  });
});

describe('an upload deep link with an empty key', () => {
  it('asks for nothing: no key names no upload', async () => {
    const requests = heldFetch();
    await prefetchFirstListing(new QueryClient(), session, at('/buckets/pek3a/photos/uploads?key=&upload=u-1'));
    expect(requests).toEqual([]);
  });
});
