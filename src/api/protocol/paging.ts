/**
 * The one paging loop of the protocol. QingStor's listings are marker-paged: a page is requested with the
 * marker the previous page ended at (`next_marker` of ListObjects, ref §9.5; `next_key_marker` and
 * `next_upload_id_marker` of ListMultipartUploads, ref §8.7; the last part number of ListMultipart, ref §8.4).
 * ListBuckets pages by `offset` (ref §9.1), which is a marker too.
 * A server that answers a marker it already answered would make a naive loop run forever, so every loop
 * here stops at a repeated marker.
 */

export interface PagerInput<Page, Marker> {
  /** Fetches the page that starts after `marker`; `undefined` asks for the first page. */
  fetchPage: (marker: Marker | undefined) => Promise<Page>;
  /** The marker of the page after `page` (fetched with `marker`), or undefined when `page` was the last one. */
  nextMarker: (page: Page, marker: Marker | undefined) => Marker | undefined;
  /** Stops between two pages (throws the signal's reason) once aborted. */
  signal?: AbortSignal | undefined;
}

/**
 * Remembers the markers a loop has requested; `repeats(marker)` is true when that marker was requested
 * before (and records it otherwise). Markers compare by their JSON text, so a composite marker (key and
 * upload id) works as well as a string or a part number.
 */
export function markerGuard<Marker>(): { repeats: (marker: Marker) => boolean } {
  const seen = new Set<string>();
  return {
    repeats(marker) {
      const id = JSON.stringify(marker);
      if (seen.has(id)) return true;
      seen.add(id);
      return false;
    },
  };
}

/**
 * `next`, unless it is one of the markers already `requested` (then undefined: the listing ends). For
 * paging driven from outside (an infinite query's next-page parameter), where no loop holds a guard.
 */
export function unlessRepeated<Marker>(next: Marker | undefined, requested: readonly unknown[]): Marker | undefined {
  if (next === undefined) return undefined;
  const id = JSON.stringify(next);
  return requested.some((marker) => JSON.stringify(marker) === id) ? undefined : next;
}

/**
 * Yields every page of a listing in order, from the first. Ends after the page whose `nextMarker` is
 * undefined, or whose next marker was already requested (a server repeating itself). Leave the loop early
 * with `break`/`return` to stop fetching.
 */
export async function* pages<Page, Marker>(input: PagerInput<Page, Marker>): AsyncGenerator<Page, void, undefined> {
  const guard = markerGuard<Marker>();
  let marker: Marker | undefined;
  for (;;) {
    input.signal?.throwIfAborted();
    const page = await input.fetchPage(marker);
    yield page;
    const next = input.nextMarker(page, marker);
    if (next === undefined || guard.repeats(next)) return;
    marker = next;
  }
}
