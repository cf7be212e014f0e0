import { useMemo } from 'react';
import { createClient, type QsClient } from '../api/client.ts';
import { useConnectedSession } from './session.ts';

/** The signing client of the current session; query keys derive from its connection (api/service/queries.ts). */
export function useClient(): QsClient {
  const session = useConnectedSession();
  return useMemo(() => createClient(session.connection), [session.connection]);
}
