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
// jsdom lays nothing out: give the parts table's scrolling box a screen's height and each row a row's height,
// so the virtualized table renders what a browser would.
const layoutHeight = (element: HTMLElement) => (element.classList.contains('parts-scroll') ? 600 : element.tagName === 'TR' ? 34 : 0);
Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get(this: HTMLElement) { return layoutHeight(this); } });
Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get() { return 800; } });
Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get(this: HTMLElement) { return layoutHeight(this); } });
Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get() { return 800; } });
const realRect = HTMLElement.prototype.getBoundingClientRect;
HTMLElement.prototype.getBoundingClientRect = function rect(this: HTMLElement) {
  const height = layoutHeight(this);
  return height > 0 ? DOMRect.fromRect({ width: 800, height }) : realRect.call(this);
};
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

/** The part numbers of the data rows in the DOM, in order (the header row has no cells). */
function renderedParts(table: HTMLElement): string[] {
  return within(table)
    .getAllByRole('row')
    .flatMap((row) => {
      const first = within(row).queryAllByRole('cell')[0];
      return first ? [first.textContent ?? ''] : [];
    });
}

describe('upload detail', () => {
  it('shows page 1 from its own response while the totals are still being counted, and asks for page 1 once', async () => {
    renderDetail();
    const table = await screen.findByRole('table', { name: 'Parts of this page' }, { timeout: 10_000 });
    // Page 1 holds 1,000 parts; only the rows in view (plus a few) are in the DOM, starting at part 1.
    await waitFor(() => expect(table.getAttribute('aria-rowcount')).toBe(String(1 + 1000)), { timeout: 10_000 });
    expect(renderedParts(table)[0]).toBe('1');
    expect(renderedParts(table).length).toBeLessThan(100);
    expect(screen.getByTestId('page-status').textContent).toBe('1,000 parts on this page');
    // The other pages are held: the totals are not there, the count so far is.
    expect(screen.getByTestId('scan-progress').textContent).toContain('1,000 parts');
    expect(screen.queryByTestId('totals')).toBeNull();

    release();
    await waitFor(() => expect(screen.getByTestId('totals').textContent).toContain('3,000 parts'), { timeout: 10_000 });
    expect(screen.getByTestId('page-status').textContent).toBe('Page 1 of 3: 1,000 parts');
    const firstPages = requests.filter((url) => !url.searchParams.has('part_number_marker'));
    expect(firstPages).toHaveLength(1);
    expect(table.getAttribute('aria-rowcount')).toBe(String(1 + 1000));
    expect(renderedParts(table).length).toBeLessThan(100);
  });
});
