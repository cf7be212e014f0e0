import { describe, expect, it } from 'vitest';
import { pageScale, PDF_MAX_CANVAS_PIXELS } from './pdf-scale.ts';
import { previewKind, TEXT_PREVIEW_BYTES } from './preview-kind.ts';
import { decodeStart, parseCsv, textPreview, WRAP_MAX_RUN } from './text-preview.ts';

const kind = (contentType: string, size = 100, key = 'a/file') => previewKind({ key, contentType, size });

describe('previewKind', () => {
  it('previews raster images and media through the browser’s viewers, and PDF as drawn by the console', () => {
    expect(kind('image/png')).toEqual({ kind: 'image', type: 'image/png' });
    expect(kind('IMAGE/JPEG; foo=bar')).toEqual({ kind: 'image', type: 'image/jpeg' });
    expect(kind('audio/mpeg')).toEqual({ kind: 'audio', type: 'audio/mpeg' });
    expect(kind('video/mp4')).toEqual({ kind: 'video', type: 'video/mp4' });
    expect(kind('application/pdf')).toEqual({ kind: 'pdf', type: 'application/pdf' });
  });

  it('never renders markup: HTML, SVG and XML are shown as source text', () => {
    expect(kind('text/html; charset=utf-8')).toEqual({ kind: 'text', format: 'source' });
    expect(kind('image/svg+xml')).toEqual({ kind: 'text', format: 'source' });
    expect(kind('application/xhtml+xml')).toEqual({ kind: 'text', format: 'source' });
    expect(kind('application/octet-stream', 10, 'x/page.html')).toEqual({ kind: 'text', format: 'source' });
  });

  it('reads text, JSON, CSV and Markdown, also by extension when stored as octet-stream', () => {
    expect(kind('text/plain')).toEqual({ kind: 'text', format: 'plain' });
    expect(kind('application/json')).toEqual({ kind: 'text', format: 'json' });
    expect(kind('text/csv')).toEqual({ kind: 'text', format: 'csv' });
    expect(kind('text/markdown; charset=utf-8')).toEqual({ kind: 'text', format: 'markdown' });
    expect(kind('application/octet-stream', 10, 'notes.md')).toEqual({ kind: 'text', format: 'markdown' });
    // A big text file is still previewed: only its first TEXT_PREVIEW_BYTES are read.
    expect(kind('text/plain', TEXT_PREVIEW_BYTES * 100)).toEqual({ kind: 'text', format: 'plain' });
  });

  it('says why there is no preview', () => {
    expect(kind('application/x-tar')).toEqual({ kind: 'none', reason: 'unknownType' });
    expect(kind('application/octet-stream', 10, 'archive.bin')).toEqual({ kind: 'none', reason: 'unknownType' });
    expect(kind('image/png', 0)).toEqual({ kind: 'none', reason: 'empty' });
    expect(kind('image/png', 21 * 1024 * 1024)).toEqual({ kind: 'none', reason: 'tooBig' });
    // A PDF too big to read is the PDF preview's to explain, beside its Download (pdf-preview.tsx).
    expect(kind('application/pdf', 51 * 1024 * 1024)).toEqual({ kind: 'pdf', type: 'application/pdf' });
  });
});

describe('pageScale', () => {
  it('draws a page sharp at the screen’s pixel ratio, within the canvas pixel bound whatever size the PDF claims', () => {
    // A 595×842 pt (A4) page 400 CSS pixels wide on a 2× screen: 800 canvas pixels across.
    expect(595 * pageScale(595, 842, 400, 2)).toBeCloseTo(800);
    // 14,400 pt square (the largest page PDF allows) and a 10-million-point strip: bounded, not gigapixels.
    for (const [width, height] of [[14_400, 14_400], [10, 10_000_000]] as const) {
      const scale = pageScale(width, height, 400, 3);
      expect(width * scale * height * scale).toBeLessThanOrEqual(PDF_MAX_CANVAS_PIXELS * 1.0001);
    }
  });
});

describe('textPreview', () => {
  it('pretty-prints complete JSON and leaves invalid or cut JSON as it is', () => {
    expect(textPreview('{"a":[1,2]}', 'json', false)).toEqual({ view: 'text', text: '{\n  "a": [\n    1,\n    2\n  ]\n}', truncated: false, json: 'pretty', wrap: true });
    expect(textPreview('{"a":', 'json', false)).toMatchObject({ view: 'text', text: '{"a":', json: 'none' });
    expect(textPreview('{"a":1}', 'json', true)).toMatchObject({ view: 'text', text: '{"a":1}', json: 'none', truncated: true });
  });

  it('keeps levels past the indentation bound on one line, and shows JSON too long to indent as stored', () => {
    expect(textPreview('[[[1,[2]]]]', 'json', false, { maxIndentDepth: 2, maxChars: 1000 })).toEqual({
      view: 'text', text: '[\n  [\n    [1,[2]]\n  ]\n]', truncated: false, json: 'flattened', wrap: true,
    });
    expect(textPreview('[1,2,3]', 'json', false, { maxIndentDepth: 20, maxChars: 10 })).toEqual({ view: 'text', text: '[1,2,3]', truncated: false, json: 'tooLong', wrap: true });
  });

  it('is laid out unwrapped when a run without a break opportunity is longer than WRAP_MAX_RUN', () => {
    const bomb = `${'['.repeat(3000)}${Array(30000).fill('0').join(',')}${']'.repeat(3000)}`;
    expect(textPreview(bomb, 'json', false)).toMatchObject({ json: 'flattened', wrap: false });
    expect(textPreview('A'.repeat(200_000), 'plain', false)).toMatchObject({ wrap: false });
    expect(textPreview(`${'a'.repeat(WRAP_MAX_RUN)} ${'b'.repeat(WRAP_MAX_RUN)}`, 'plain', false)).toMatchObject({ wrap: true });
    expect(textPreview(`x${'a'.repeat(WRAP_MAX_RUN)}`, 'plain', false)).toMatchObject({ wrap: false });
    // Prose: words, or CJK text (a break opportunity between every two characters), wraps as before.
    expect(textPreview('lorem ipsum '.repeat(20_000), 'plain', false)).toMatchObject({ wrap: true });
    expect(textPreview('中文段落没有空格'.repeat(10_000), 'plain', false)).toMatchObject({ wrap: true });
  });

  it('a CSV with a cell holding a run longer than WRAP_MAX_RUN is shown as text, unwrapped, not as a table', () => {
    const long = `a,b\n1,${'x'.repeat(20_000)}\n`;
    expect(textPreview(long, 'csv', false)).toMatchObject({ view: 'text', text: long, wrap: false, csvAsText: true });
    expect(textPreview(`a,b\n1,${'word '.repeat(4_000)}\n`, 'csv', false)).toMatchObject({ view: 'table' });
  });

  it('shows markup as text, with bidi controls made visible', () => {
    expect(textPreview('<script>alert(1)</script>\u202e', 'source', false)).toMatchObject({ view: 'text', text: '<script>alert(1)</script>⟨U+202E⟩' });
  });

  it('turns CSV into rows, quotes and CRLF included', () => {
    expect(textPreview('id,name\r\n1,"Ada, ""the"" first"\n2,Grace\n', 'csv', false)).toEqual({
      view: 'table', rows: [['id', 'name'], ['1', 'Ada, "the" first'], ['2', 'Grace']], moreRows: false, truncated: false,
    });
    expect(parseCsv('a\nb\nc\n', 2)).toEqual({ rows: [['a'], ['b']], more: true });
    // The partial last row of a cut file is dropped.
    expect(parseCsv('a,b\nc,d\ne,', 10, true)).toEqual({ rows: [['a', 'b'], ['c', 'd']], more: false });
  });

  it('drops a character cut by the range end instead of showing a replacement character', () => {
    const bytes = new TextEncoder().encode('ab中');
    expect(decodeStart(bytes.subarray(0, 4), true)).toBe('ab');
    expect(decodeStart(bytes, false)).toBe('ab中');
  });
});
