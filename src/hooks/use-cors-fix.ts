import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { createClient } from '../api/client.ts';
import { connectionId, type Connection } from '../api/connection.ts';
import { buildCorsRule, mergeCorsRules } from '../components/cors-rule.ts';
import { useSession } from './session.ts';

// GET ?cors (ref §9.9): unknown fields of existing rules are kept verbatim when writing back.
const corsConfigSchema = z.object({
  cors_rules: z.array(z.looseObject({ allowed_origin: z.string() })).optional(),
  resp_vary: z.string().optional(),
});

/**
 * Reads the bucket's CORS configuration, adds the console's rule, writes it back (PUT ?cors replaces
 * the whole configuration). Both calls go to the bucket and can be blocked by the very CORS problem they
 * try to fix; the caller says so. `connection` overrides the session's (the Connect screen has none yet).
 */
export function useCorsFix(bucket: { zone: string; name: string }, connection?: Connection) {
  const { session } = useSession();
  const target = connection ?? session?.connection;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (origin: string) => {
      if (!target) throw new Error('No connection to apply the CORS rule with');
      const client = createClient(target);
      const current = await client.json(corsConfigSchema, {
        operation: 'GetBucketCORS',
        method: 'GET',
        zone: bucket.zone,
        bucket: bucket.name,
        query: { cors: null },
      });
      const rules = mergeCorsRules(current.cors_rules ?? [], buildCorsRule(origin));
      const body = JSON.stringify({ ...(current.resp_vary ? { resp_vary: current.resp_vary } : {}), cors_rules: rules });
      await client.send({
        operation: 'PutBucketCORS',
        method: 'PUT',
        zone: bucket.zone,
        bucket: bucket.name,
        query: { cors: null },
        headers: { 'content-type': 'application/json' },
        body,
      });
      return connectionId(target);
    },
    onSuccess: (key) => queryClient.invalidateQueries({ queryKey: ['qs', key] }),
  });
}
