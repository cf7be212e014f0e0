import { describe, expect, it } from 'vitest';
import { DEFAULT_MULTIPART_THRESHOLD, planBatch } from './plan-batch.ts';
import { MAX_KEY_BYTES } from '../../../api/protocol/limits.ts';
import { STAGING_OVERHEAD_BYTES, stagingKeyFor } from './form-upload.ts';

function file(name: string, size: number, type = ''): File {
  return new File([new Uint8Array(size)], name, { type });
}

describe('planBatch', () => {
  it('keys are prefix + relative path; PostObject below the threshold, multipart from it on', () => {
    const plan = planBatch({
      files: [
        { file: file('a.txt', 10, 'text/plain'), relativePath: 'photos/a.txt' },
        { file: file('b.bin', 100), relativePath: '/photos/2024/b.bin' },
        { file: file('c.bin', 99), relativePath: 'photos\\c.bin' },
      ],
      bucket: 'bkt',
      zone: 'pek3a',
      prefix: 'uploads/',
      multipartThreshold: 100,
    });
    expect(plan.problems).toEqual([]);
    expect(plan.uploads.map((u) => [u.key, u.kind, u.relativePath])).toEqual([
      ['uploads/photos/a.txt', 'form', 'photos/a.txt'],
      ['uploads/photos/2024/b.bin', 'multipart', 'photos/2024/b.bin'],
      ['uploads/photos/c.bin', 'form', 'photos/c.bin'],
    ]);
    expect(plan.uploads[0]).toMatchObject({ bucket: 'bkt', zone: 'pek3a' });
  });

  it('defaults to 20 MB and uses webkitRelativePath or the name for plain File objects', () => {
    expect(DEFAULT_MULTIPART_THRESHOLD).toBe(20_000_000);
    const picked = file('x.txt', 1);
    Object.defineProperty(picked, 'webkitRelativePath', { value: 'folder/x.txt' });
    const plan = planBatch({ files: [picked, file('y.txt', 1)], bucket: 'b' });
    expect(plan.uploads.map((u) => u.key)).toEqual(['folder/x.txt', 'y.txt']);
    expect(plan.uploads.every((u) => u.kind === 'form')).toBe(true);
  });

  it('applies the batch metadata to every file; Content-Type falls back to the file type', () => {
    const plan = planBatch({
      files: [file('a.txt', 1, 'text/plain'), file('b', 1)],
      bucket: 'b',
      metadata: { standard: { 'cache-control': 'no-cache' }, custom: { Project: 'apollo' } },
    });
    expect(plan.uploads[0]?.metadata).toEqual({ standard: { 'cache-control': 'no-cache', 'content-type': 'text/plain' }, custom: { project: 'apollo' } });
    expect(plan.uploads[1]?.metadata).toEqual({ standard: { 'cache-control': 'no-cache' }, custom: { project: 'apollo' } });
    const typed = planBatch({ files: [file('a.txt', 1, 'text/plain')], bucket: 'b', metadata: { standard: { 'content-type': 'application/x-custom' }, custom: {} } });
    expect(typed.uploads[0]?.metadata.standard['content-type']).toBe('application/x-custom');
  });

  it('refuses the whole batch when the metadata breaks the shared rules (ref §6)', () => {
    const badKey = planBatch({ files: [file('a', 1)], bucket: 'b', metadata: { standard: {}, custom: { 'bad key': 'v' } } });
    expect(badKey.uploads).toEqual([]);
    expect(badKey.problems).toEqual([expect.objectContaining({ kind: 'metadata', rule: 'key_charset', key: 'bad key' })]);
    const tooLarge = planBatch({ files: [file('a', 1)], bucket: 'b', metadata: { standard: {}, custom: { k: 'v'.repeat(2048) } } });
    expect(tooLarge.problems).toEqual([expect.objectContaining({ kind: 'metadata', rule: 'total_too_large' })]);
    const badExpires = planBatch({ files: [file('a', 1)], bucket: 'b', metadata: { standard: { expires: 'tomorrow' }, custom: {} } });
    expect(badExpires.problems).toEqual([expect.objectContaining({ kind: 'metadata', rule: 'expires_not_http_date' })]);
  });

  it('skips files whose key is a duplicate, too long or starts with "/", and reports them', () => {
    const plan = planBatch({
      files: [
        { file: file('a', 1), relativePath: 'a' },
        { file: file('a', 1), relativePath: 'a' },
        { file: file('long', 1), relativePath: 'é'.repeat(512) },
        { file: file('c', 1), relativePath: 'c' },
      ],
      bucket: 'b',
    });
    expect(plan.uploads.map((u) => u.key)).toEqual(['a', 'c']);
    expect(plan.problems.map((p) => (p.kind === 'key' ? p.reason : p.kind))).toEqual(['duplicate', 'too_long']);
    expect(planBatch({ files: [file('x', 1)], bucket: 'b', prefix: '/root/' }).problems).toEqual([expect.objectContaining({ reason: 'leading_slash' })]);
  });

  it('sends a key too long for a staging name beside it as multipart, whose parts carry Content-MD5', () => {
    const near = 'k'.repeat(MAX_KEY_BYTES - STAGING_OVERHEAD_BYTES);
    const plan = planBatch({ files: [{ file: file('a', 1), relativePath: near }, { file: file('b', 1), relativePath: `${near}k` }], bucket: 'b' });
    expect(plan.uploads.map((u) => u.kind)).toEqual(['form', 'multipart']);
    expect(stagingKeyFor(near, '0123456789abcdef').length).toBeLessThanOrEqual(MAX_KEY_BYTES);
    expect(stagingKeyFor('docs/report.pdf', '0123456789abcdef')).toBe('docs/.report.pdf.0123456789abcdef.uploading');
    expect(stagingKeyFor(`docs/${'n'.repeat(1000)}`, '0123456789abcdef')).toBe('docs/.0123456789abcdef.uploading');
  });

  it('sends a key containing ${filename} as multipart, which stores keys verbatim (ref §7)', () => {
    const plan = planBatch({ files: [{ file: file('${filename}.txt', 1), relativePath: '${filename}.txt' }], bucket: 'b' });
    expect(plan.uploads[0]?.kind).toBe('multipart');
  });
});
