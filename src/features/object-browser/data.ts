import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { parseHeaders, type QsClient } from '../../api/client.ts';
import { metadataFromHeaders, type ObjectMetadata } from '../../api/metadata/model.ts';
import { listObjectsSchema, objectHeadersSchema, type ListObjectsResult, type ObjectHeaders } from '../../api/objects/schemas.ts';

/**
 * ListObjects and HeadObject for the browser. Adapter in this feature until the api layer ships
 * objects/queries.ts; requests are described here, the client signs, sends and maps errors.
 */

/** ref §9.5 / §12: the real service clamps `limit` to 100 or 1000; we ask for the larger and follow has_more. */
export const PAGE_LIMIT = 1000;

export function objectsKey(connectionKey: string, zone: string, bucket: string) {
  return ['qs', connectionKey, 'objects', zone, bucket] as const;
}

export function listingQuery(client: QsClient, connectionKey: string, zone: string, bucket: string, prefix: string) {
  return infiniteQueryOptions({
    queryKey: [...objectsKey(connectionKey, zone, bucket), 'list', { prefix, delimiter: '/' }] as const,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }): Promise<ListObjectsResult> =>
      client.json(listObjectsSchema, {
        operation: 'ListObjects',
        method: 'GET',
        zone,
        bucket,
        query: {
          prefix: prefix === '' ? undefined : prefix,
          delimiter: '/',
          marker: pageParam === '' ? undefined : pageParam,
          limit: PAGE_LIMIT,
        },
        signal,
      }),
    // has_more with an empty next_marker would loop forever on the first page; treat it as the end.
    getNextPageParam: (last) => (last.has_more && last.next_marker !== '' ? last.next_marker : undefined),
  });
}

export interface ObjectHead {
  headers: ObjectHeaders;
  metadata: ObjectMetadata;
  requestId: string;
}

export function headQuery(client: QsClient, connectionKey: string, zone: string, bucket: string, key: string) {
  return queryOptions({
    queryKey: [...objectsKey(connectionKey, zone, bucket), 'head', key] as const,
    queryFn: async ({ signal }): Promise<ObjectHead> => {
      const response = await client.send({ operation: 'HeadObject', method: 'HEAD', zone, bucket, key, signal });
      const info = { operation: 'HeadObject', method: 'HEAD', requestUrl: client.url({ zone, bucket, key }).url.href };
      return {
        headers: parseHeaders(objectHeadersSchema, response, info),
        metadata: metadataFromHeaders(response.headers),
        requestId: response.headers.get('x-qs-request-id') ?? '',
      };
    },
  });
}
