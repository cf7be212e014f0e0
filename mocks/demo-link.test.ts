import { describe, expect, it } from 'vitest';
import { getObjectUrl } from '../src/api/objects/read.ts';
import { createClient } from '../src/api/client.ts';
import { DEMO_CONNECTION } from '../src/api/connection.ts';
import { demoLinkOnOrigin, demoLinkTarget } from '../src/api/demo-link.ts';
import { demoLinkHandler, guardDemoLinkResponse } from './demo-link.ts';
import { createEmulator } from './emulator.ts';
import { getResponse } from 'msw';

const ORIGIN = 'http://127.0.0.1:4173';

describe('demo links on the console origin', () => {
  it('maps a demo backend URL onto the origin and back, query included; other URLs are left alone', () => {
    const url = new URL('https://pek3a.qingstor.invalid/demo-documents/a%20b/c.txt?signature=x&expires=1');
    const local = demoLinkOnOrigin(url, ORIGIN);
    expect(local.href).toBe(`${ORIGIN}/demo-object/pek3a.qingstor.invalid/demo-documents/a%20b/c.txt?signature=x&expires=1`);
    expect(demoLinkTarget(local)?.href).toBe(url.href);
    const real = new URL('https://pek3a.qingstor.com/b/k');
    expect(demoLinkOnOrigin(real, ORIGIN)).toBe(real);
    expect(demoLinkTarget(new URL(`${ORIGIN}/demo-object/evil.example.com/b/k`))).toBeNull();
    expect(demoLinkTarget(new URL(`${ORIGIN}/demo-object/qingstor.invalid.evil.com/b/k`))).toBeNull();
    expect(demoLinkTarget(new URL(`${ORIGIN}/other/pek3a.qingstor.invalid/b/k`))).toBeNull();
  });

  it('serves only raster images, media and PDF inline; HTML, SVG, text and errors are attachments or plain text, never sniffed', async () => {
    const served = (type: string, init: ResponseInit = {}) => guardDemoLinkResponse(new Response('x', { ...init, headers: { 'content-type': type, ...(init.headers as Record<string, string> | undefined) } }));
    const scriptish = ['text/javascript', 'application/javascript; charset=utf-8', 'text/css', 'application/json', 'application/wasm', 'text/xml'];
    for (const type of ['text/html; charset=utf-8', 'image/svg+xml', 'application/xhtml+xml', 'text/plain', 'application/octet-stream', 'TEXT/HTML', ...scriptish]) {
      const response = served(type);
      expect(response.headers.get('content-disposition')).toBe('attachment');
      // A type a <script>, <link rel=stylesheet> or worker would run: never sent (nosniff then refuses it).
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
      expect(response.headers.get('content-security-policy')).toMatch(/^sandbox;/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    for (const type of ['image/png', 'image/jpeg', 'audio/mpeg', 'video/mp4', 'application/pdf']) {
      expect(served(type).headers.get('content-disposition')).toBeNull();
      expect(served(type).headers.get('content-type')).toBe(type);
    }
    // An HTML object asked for inline with a stored "inline" disposition is still an attachment.
    expect(served('text/html', { headers: { 'content-disposition': 'inline' } }).headers.get('content-disposition')).toBe('attachment');
    const error = served('application/json', { status: 403 });
    expect(error.status).toBe(403);
    expect(error.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('answers a pre-signed download link on the origin with the object’s exact bytes as an attachment', async () => {
    const emulator = await createEmulator({ seed: 'demo', domains: ['qingstor.invalid'], defaultZone: 'pek3a' });
    const handler = demoLinkHandler(emulator.handlers, ORIGIN);
    const client = createClient(DEMO_CONNECTION);
    const signed = await getObjectUrl(client, { zone: 'pek3a', bucket: 'demo-documents', key: 'reports/readme.md', expiresIn: 300, downloadName: 'readme.md' });
    const response = await getResponse([handler], new Request(demoLinkOnOrigin(signed, ORIGIN)));
    expect(response?.status).toBe(200);
    expect(response?.headers.get('content-disposition')).toContain('attachment');
    expect(await response?.text()).toBe('# Reports\n\nQuarterly and yearly reports.\n');

    // The signature still counts: a changed key is refused with QingStor's error, as plain text.
    const tampered = new URL(demoLinkOnOrigin(signed, ORIGIN).href.replace('readme.md?', 'other.md?'));
    const refused = await getResponse([handler], new Request(tampered));
    expect(refused?.status).toBe(401);
    expect(await refused?.text()).toContain('signature_not_matched');

    // The stored HTML page comes back as an attachment even when asked inline.
    const page = await getObjectUrl(client, { zone: 'pek3a', bucket: 'demo-documents', key: 'data/page.html', expiresIn: 300, responseContentType: 'text/html' });
    const html = await getResponse([handler], new Request(demoLinkOnOrigin(page, ORIGIN)));
    expect(html?.headers.get('content-disposition')).toBe('attachment');
  });
});
