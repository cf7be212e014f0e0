import { QueryClient } from '@tanstack/react-query';
import { ApiError, ContractError, NetworkError } from '../api/errors.ts';

/**
 * Retrying a 4xx (bad credentials, missing bucket) or a CORS block only repeats the same answer and
 * delays the explanation, so only server-side (5xx) failures and plain network errors are retried.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  if (error instanceof ApiError) return error.status >= 500;
  if (error instanceof NetworkError) return !error.likelyCors && failureCount < 1;
  if (error instanceof ContractError) return false;
  return false;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
