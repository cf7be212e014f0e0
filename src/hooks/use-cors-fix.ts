import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Connection } from '../api/connection.ts';
import { applyCorsRuleMutation } from '../api/cors/queries.ts';
import { useSession } from './session.ts';

/**
 * Adds the console's CORS rule to a bucket (applyCorsRuleMutation in src/api/cors/queries.ts) with the
 * session's connection, or `connection` when given (the Connect screen has no session yet).
 */
export function useCorsFix(bucket: { zone: string; name: string }, connection?: Connection) {
  const { session } = useSession();
  const queryClient = useQueryClient();
  return useMutation(applyCorsRuleMutation(connection ?? session?.connection, bucket, queryClient));
}
