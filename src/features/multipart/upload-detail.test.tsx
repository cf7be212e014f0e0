// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS, type Connection } from '../../api/connection.ts';
import { SessionContext, type SessionApi } from '../../hooks/session.ts';
import { I18nProvider } from '../../i18n/i18n.tsx';
import { createMemoryHistory, RouterProvider, Routes } from '../../lib/router.tsx';
import { UploadDetail } from './upload-detail.tsx';

// See metadata-editor.test.tsx: jsdom's TextEncoder returns Node-realm arrays the store refuses.
const NodeTextEncoder = globalThis.TextEncoder;
class RealmTextEncoder extends NodeTextEncoder {
  override encode(input?: string): Uint8Array<ArrayBuffer> {
    return new Uint8Array(super.encode(input));
  }
}
globalThis.TextEncoder = RealmTextEncoder;
const { setupEmulatorServer } = await import('../../../mocks/node.ts');
const { server, emulator } = await setupEmulatorServer({ seed: 'demo' });

const bucket = 'demo-uploads';
const key = 'held/three-thousand.bin';
const PARTS = 3000;
let uploadId = '';

/** ListMultipart requests of this upload, as the emulator received them. */
const requests: URL[] = [];
/** Pages after the first wait for this before the emulator answers them. */
let release: () => void = () => undefined;
const held = new Promise<void>((resolve) => {
  release = resolve;
});

beforeAll(() => {
  const { uploadId: id } = emulator.store.initiateMultipartUpload(bucket, key, {});
  uploadId = id;
  const body = new Uint8Array(16).fill(1);
  for (let n = 1; n <= PARTS; n++) emulator.store.uploadPart(bucket, key, uploadId, n, { body });
  server.listen({ onUnhandledFrame: 'bypass' });
  server.use(
    http.get(({ request }) => new URL(request.url).searchParams.has('upload_id'), async ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      // Falls through to the emulator's handler once released.
      if (url.searchParams.has('part_number_marker')) await held;
    }),
  );
});
afterAll(() => server.close());

const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'sh1a', credentials: DEMO_CREDENTIALS };

function renderDetail() {
  const session: SessionApi = {
    session: { mode: 'endpoint', connection, zones: ['sh1a'] },
    demoAvailable: false,
    serve: undefined,
    connect: () => undefined,
    disconnect: () => undefined,
    switchToDemo: () => undefined,
    switchToEndpoint: () => undefined,
  };
  const history = createMemoryHistory('/uploads');
  const routes = [{ path: '/uploads', Component: () => <UploadDetail zone="sh1a" bucket={bucket} objectKey={key} uploadId={uploadId} limit={1000} after={null} prefix="" /> }];
  render(
    <I18nProvider locale="en">
      <SessionContext value={session}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <RouterProvider history={history}>
            <Routes routes={routes} />
          </RouterProvider>
        </QueryClientProvider>
      </SessionContext>
    </I18nProvider>,
  );
}

describe('upload detail', () => {
  it('shows page 1 from its own response while the totals are still being counted, and asks for page 1 once', async () => {
    renderDetail();
    const table = await screen.findByRole('table', { name: 'Parts of this page' });
    // All 1,000 rows of page 1 (the first few render first, the rest right after).
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(1 + 1000), { timeout: 10_000 });
    expect(screen.getByTestId('page-status').textContent).toBe('1,000 parts on this page');
    // The other pages are held: the totals are not there, the count so far is.
    expect(screen.getByTestId('scan-progress').textContent).toContain('1,000 parts');
    expect(screen.queryByTestId('totals')).toBeNull();

    release();
    await waitFor(() => expect(screen.getByTestId('totals').textContent).toContain('3,000 parts'), { timeout: 10_000 });
    expect(screen.getByTestId('page-status').textContent).toBe('Page 1 of 3: 1,000 parts');
    const firstPages = requests.filter((url) => !url.searchParams.has('part_number_marker'));
    expect(firstPages).toHaveLength(1);
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 1000);
  });
});
