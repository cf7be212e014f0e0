import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { createClient, type BucketRef, type QsClient } from '../client.ts';
import type { Connection } from '../connection.ts';
import { bucketKey } from '../buckets/queries.ts';
import { qsRootKey } from '../service/queries.ts';
import { deleteBucketCors, getBucketCors, putBucketCors } from './operations.ts';
import { buildCorsRule, mergeCorsRules } from './rule.ts';
import type { PutBucketCorsBody } from './schemas.ts';

export function bucketCorsKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'cors'] as const;
}

export function bucketCorsQuery(client: QsClient, ref: BucketRef) {
  return queryOptions({
    queryKey: bucketCorsKey(client, ref.bucket),
    queryFn: ({ signal }) => getBucketCors(client, ref, { signal }),
  });
}

export function putBucketCorsMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'putBucketCors'],
    mutationFn: (input: BucketRef & { config: PutBucketCorsBody }) => putBucketCors(client, input, input.config),
    onSuccess: (_data, input) => queryClient.invalidateQueries({ queryKey: bucketCorsKey(client, input.bucket) }),
  });
}

export function deleteBucketCorsMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'deleteBucketCors'],
    mutationFn: (ref: BucketRef) => deleteBucketCors(client, ref),
    onSuccess: (_data, ref) => queryClient.invalidateQueries({ queryKey: bucketCorsKey(client, ref.bucket) }),
  });
}

/**
 * Adds the console's CORS rule for `origin` to a bucket: reads the bucket's CORS configuration, merges the
 * rule in, writes it back (PUT ?cors replaces the whole configuration, ref §9.9). Both calls go to the bucket
 * and can be blocked by the very CORS problem they try to fix; the caller says so. `connection` may be one not
 * yet in the session (the Connect screen). Only this bucket's answers were blocked: it refetches what belongs
 * to the bucket (its listings, objects, CORS rule).
 */
export function applyCorsRuleMutation(connection: Connection | undefined, bucket: { zone: string; name: string }, queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: async (origin: string) => {
      if (!connection) throw new Error('No connection to apply the CORS rule with');
      const client = createClient(connection);
      const ref = { zone: bucket.zone, bucket: bucket.name };
      const current = await getBucketCors(client, ref);
      const rules = mergeCorsRules(current.cors_rules, buildCorsRule(origin));
      await putBucketCors(client, ref, { cors_rules: rules, ...(current.resp_vary ? { resp_vary: current.resp_vary } : {}) });
      return bucketKey(client, bucket.name);
    },
    onSuccess: (key) => queryClient.invalidateQueries({ queryKey: key }),
  });
}
