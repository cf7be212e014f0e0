import { queryOptions } from '@tanstack/react-query';
import type { ObjectRef, QsClient } from '../client.ts';
import { objectKey } from './queries.ts';
import { readObjectStart } from './read-start.ts';

// Apart from queries.ts so that the object list, which uses those, does not carry the preview's reading code.

/**
 * The first `maxBytes` of an object (or of its decoded text), for a text preview: read-start.ts says how they
 * are asked for and why no more is ever read. Keyed by the ETag the details showed, so a preview made after a
 * change is read again.
 */
export function objectStartQuery(client: QsClient, ref: ObjectRef, input: { maxBytes: number; etag: string | undefined; contentEncoding?: string; refused?: boolean }) {
  const { maxBytes, etag, contentEncoding = '', refused = false } = input;
  return queryOptions({
    queryKey: [...objectKey(client, ref.bucket, ref.key), 'start', maxBytes, etag ?? '', contentEncoding, refused] as const,
    queryFn: ({ signal }) => readObjectStart(client, { ...ref, maxBytes, contentEncoding, refused }, { signal }),
    staleTime: 60_000,
  });
}
