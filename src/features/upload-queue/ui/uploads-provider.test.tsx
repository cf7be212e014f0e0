// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../../api/client.ts';
import { DEMO_CREDENTIALS, connectionId, type Connection } from '../../../api/connection.ts';
import { useUploadDrawer } from './upload-hooks.ts';
import type { UploadHost, UploadSession } from './upload-host.ts';
import { useUploadSession } from './upload-session.ts';
import { UploadsProvider, useUploadHost } from './uploads-provider.tsx';

const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const client = createClient(connection);
const scope = connectionId(connection);

function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={new QueryClient()}>
      <UploadsProvider>{children}</UploadsProvider>
    </QueryClientProvider>
  );
}

function Consumer({ name, hosts, sessions }: { name: string; hosts: UploadHost[]; sessions: UploadSession[] }) {
  const host = useUploadHost();
  hosts.push(host);
  const session = useUploadSession(client);
  useEffect(() => {
    if (session) sessions.push(session);
  }, [session, sessions]);
  return <p>{session ? `${name}: ready` : `${name}: loading`}</p>;
}

describe('UploadsProvider', () => {
  it('rendering a consumer creates no session: its mounting does (a sibling rendered after it in the same pass sees none)', () => {
    const seen: Array<UploadSession | undefined> = [];
    function Witness() {
      seen.push(useUploadHost().peek(scope));
      return null;
    }
    render(
      <Providers>
        <Consumer name="a" hosts={[]} sessions={[]} />
        <Witness />
      </Providers>,
    );
    expect(seen[0]).toBeUndefined();
    // Made in the consumer's layout effect: there by the time the mount has committed, with no await.
    expect(screen.getByText('a: ready')).toBeTruthy();
  });

  it('gives every consumer the one host of the app and the one session of the connection', () => {
    const hosts: UploadHost[] = [];
    const sessions: UploadSession[] = [];
    const { rerender } = render(
      <Providers>
        <Consumer name="a" hosts={hosts} sessions={sessions} />
        <Consumer name="b" hosts={hosts} sessions={sessions} />
      </Providers>,
    );
    expect(screen.getByText('a: ready')).toBeTruthy();
    expect(screen.getByText('b: ready')).toBeTruthy();
    rerender(
      <Providers>
        <Consumer name="a" hosts={hosts} sessions={sessions} />
        <Consumer name="b" hosts={hosts} sessions={sessions} />
      </Providers>,
    );
    expect(new Set(hosts).size).toBe(1);
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toBe(sessions[1]);
    expect(hosts[0]?.peek(scope)).toBe(sessions[0]);
  });

  it('shares the drawer state between its readers', async () => {
    function Toggle() {
      const { open, set } = useUploadDrawer();
      return (
        <button type="button" onClick={() => set({ open: !open, target: { zone: 'pek3a', bucket: 'b', prefix: '' } })}>
          {open ? 'close' : 'open'}
        </button>
      );
    }
    function Reader() {
      const { open, target } = useUploadDrawer();
      return <p>{open ? `drawer on ${target?.bucket ?? ''}` : 'drawer closed'}</p>;
    }
    render(
      <Providers>
        <Toggle />
        <Reader />
      </Providers>,
    );
    expect(screen.getByText('drawer closed')).toBeTruthy();
    await act(async () => screen.getByRole('button', { name: 'open' }).click());
    expect(screen.getByText('drawer on b')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'close' })).toBeTruthy();
  });
});
