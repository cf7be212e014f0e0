// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ObjectHead } from '../../api/objects/read.ts';

function head(custom: Record<string, string>, lastModifiedRaw: string): ObjectHead {
  return {
    bucket: 'b',
    key: 'k',
    size: 5,
    contentType: 'text/plain',
    etag: '"abc"',
    lastModifiedRaw,
    lastModified: new Date(lastModifiedRaw),
    serverClock: { serverDate: new Date(lastModifiedRaw), receivedAt: 1 },
    storageClass: 'STANDARD',
    metadata: { standard: { 'content-type': 'text/plain' }, custom },
    requestId: 'r1',
  };
}

/** A fresh copy of the module, as after a page reload (module state gone, sessionStorage kept). */
async function reloaded() {
  vi.resetModules();
  return import('./last-save.ts');
}

describe('last save (undo) across a reload', () => {
  beforeEach(() => sessionStorage.clear());

  it('the before-image survives a reload exactly, __proto__ keys included; undone means gone', async () => {
    const first = await reloaded();
    const id = first.lastSaveId('AKID@https://qingstor.com|zone-host|path|pek3a', 'pek3a', 'b', 'k');
    const before = head(JSON.parse('{"__proto__":"p","a":"1"}') as Record<string, string>, 'Tue, 24 Nov 2026 10:00:00 GMT');
    const after = head({ a: '2' }, 'Tue, 24 Nov 2026 10:00:05 GMT');
    first.recordSave(id, { before, after });

    const second = await reloaded();
    const restored = second.readLastSave(id);
    expect(restored?.before.metadata).toEqual(before.metadata);
    expect(Object.hasOwn(restored?.before.metadata.custom ?? {}, '__proto__')).toBe(true);
    expect(restored?.after.lastModifiedRaw).toBe('Tue, 24 Nov 2026 10:00:05 GMT');
    expect(restored?.after.lastModified?.toISOString()).toBe('2026-11-24T10:00:05.000Z');
    expect(restored?.after.serverClock).toBeUndefined();
    // Nothing secret is stored: only the access key id in the id, no secret anywhere.
    expect(JSON.stringify({ ...sessionStorage })).not.toMatch(/secret/i);

    second.recordSave(id, null);
    expect((await reloaded()).readLastSave(id)).toBeUndefined();
  });

  it('a damaged record is ignored, not trusted', async () => {
    const mod = await reloaded();
    const id = mod.lastSaveId('c', 'z', 'b', 'k');
    sessionStorage.setItem(`qsc.lastSave:${id}`, '{"before":{"bucket":1},"after":null}');
    expect(mod.readLastSave(id)).toBeUndefined();
    sessionStorage.setItem(`qsc.lastSave:${id}`, 'not json');
    expect((await reloaded()).readLastSave(id)).toBeUndefined();
  });
});
