import { useMemo } from 'react';
import { createClient, type QsClient } from '../api/client.ts';
import { connectionId } from '../api/connection.ts';
import { useConnectedSession } from './session.ts';

export interface ConnectedClient {
  client: QsClient;
  /** Secret-free identity of the connection; the second element of every query key. */
  connectionKey: string;
}

export function useClient(): ConnectedClient {
  const session = useConnectedSession();
  return useMemo(
    () => ({ client: createClient(session.connection), connectionKey: connectionId(session.connection) }),
    [session.connection],
  );
}
