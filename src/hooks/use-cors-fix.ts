import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createClient } from '../api/client.ts';
import type { Connection } from '../api/connection.ts';
import { getBucketCors, putBucketCors } from '../api/cors/operations.ts';
import { bucketKey } from '../api/buckets/queries.ts';
import { buildCorsRule, mergeCorsRules } from '../api/cors/rule.ts';
import { useSession } from './session.ts';

/**
 * Reads the bucket's CORS configuration, adds the console's rule, writes it back (PUT ?cors replaces
 * the whole configuration, ref §9.9). Both calls go to the bucket and can be blocked by the very CORS
 * problem they try to fix; the caller says so. `connection` overrides the session's (the Connect
 * screen has no session yet).
 */
export function useCorsFix(bucket: { zone: string; name: string }, connection?: Connection) {
  const { session } = useSession();
  const target = connection ?? session?.connection;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (origin: string) => {
      if (!target) throw new Error('No connection to apply the CORS rule with');
      const client = createClient(target);
      const ref = { zone: bucket.zone, bucket: bucket.name };
      const current = await getBucketCors(client, ref);
      const rules = mergeCorsRules(current.cors_rules, buildCorsRule(origin));
      await putBucketCors(client, ref, { cors_rules: rules, ...(current.resp_vary ? { resp_vary: current.resp_vary } : {}) });
      // Only this bucket's answers were blocked: refetch what belongs to it (its listings, objects, CORS rule).
      return bucketKey(client, bucket.name);
    },
    onSuccess: (key) => queryClient.invalidateQueries({ queryKey: key }),
  });
}
