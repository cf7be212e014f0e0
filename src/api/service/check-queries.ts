import { mutationOptions } from '@tanstack/react-query';
import type { CheckTarget, Verdict } from './check.ts';

// A module of its own: the Connect screen loads it without the bucket list's queries (queries.ts).

/**
 * Checks a connection before it is used (check.ts): the verdict, beside the session it was asked for and
 * whatever the caller passed with it. Nothing is cached yet, so nothing is invalidated; the check's calls
 * load on first use, not with the form. `onResult` runs once a verdict is in, good or bad.
 */
export function connectionCheckMutation<T extends { session: CheckTarget }>(onResult?: (result: T & { verdict: Verdict }) => void) {
  return mutationOptions({
    mutationKey: ['connection', 'check'],
    mutationFn: async (input: T): Promise<T & { verdict: Verdict }> => {
      const { checkConnection } = await import('./check.ts');
      return { ...input, verdict: await checkConnection(input.session) };
    },
    ...(onResult ? { onSuccess: onResult } : {}),
  });
}
