import { describe, expect, it } from 'vitest';
import { formatJson, JSON_FORMAT_LIMITS } from './json-format.ts';
import { textPreview } from './text-preview.ts';

const samples: unknown[] = [
  { a: [1, 2, { b: null, c: 'x"y\u2028' }], d: {}, e: [], f: true, g: -0, h: 1e21 },
  [[], [{}], 'text', 0.5],
  'scalar',
  JSON.parse('{"__proto__": {"x": 1}, "k": [1]}'),
];

describe('formatJson', () => {
  it('writes what JSON.stringify(value, null, 2) writes while no level is too deep', () => {
    for (const value of samples) {
      expect(formatJson(value)).toEqual({ text: JSON.stringify(value, null, 2), flattened: false });
    }
  });

  it('keeps levels deeper than the bound on one line, as JSON.stringify without indentation writes them', () => {
    const value = { a: { b: { c: [1, { d: 2 }] } } };
    expect(formatJson(value, { maxIndentDepth: 2, maxChars: 1000 })).toEqual({
      text: '{\n  "a": {\n    "b": {"c":[1,{"d":2}]}\n  }\n}',
      flattened: true,
    });
    expect(JSON.parse(formatJson(value, { maxIndentDepth: 2, maxChars: 1000 })?.text ?? '')).toEqual(value);
  });

  it('gives up once the output would pass the bound', () => {
    expect(formatJson([1, 2, 3], { maxIndentDepth: 20, maxChars: 16 })).toBeNull();
    expect(formatJson([1, 2, 3], { maxIndentDepth: 20, maxChars: 17 })).toEqual({ text: '[\n  1,\n  2,\n  3\n]', flattened: false });
  });
});

describe('JSON that grows with the square of its nesting', () => {
  // 30 KB of {"a": nested 5,000 deep; 66 KB of [ ×3000 around 30,000 zeros and ] ×3000.
  const objects = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
  const arrays = `${'['.repeat(3000)}${Array(30000).fill('0').join(',')}${']'.repeat(3000)}`;

  it.each([
    ['objects nested 5,000 deep', objects],
    ['arrays nested 3,000 deep around 30,000 zeros', arrays],
  ])('%s: formatted within the bound, the deep levels on one line', (_name, text) => {
    const preview = textPreview(text, 'json', false);
    expect(preview).toMatchObject({ view: 'text', json: 'flattened' });
    if (preview.view !== 'text') throw new Error('text expected');
    // What the page is asked to show is the stored text plus the indented levels' lines, whatever the nesting.
    expect(preview.text.length).toBeLessThan(text.length + 4 * JSON_FORMAT_LIMITS.maxIndentDepth ** 2);
    // Valid JSON holding the same value: these texts have no string with spaces, so dropping the indentation
    // gives the stored text back (a recursive deep equality or stringify of 5,000 levels can exhaust the stack).
    expect(() => JSON.parse(preview.text)).not.toThrow();
    expect(preview.text.replace(/\s+/g, '')).toBe(text);
  });

  it('indenting 256 KiB of small values passes the output bound: shown as stored', () => {
    const text = `[${Array(100_000).fill('1').join(',')}]`;
    const preview = textPreview(`{"a":{"b":{"c":{"d":${text}}}}}`, 'json', false);
    expect(preview).toMatchObject({ view: 'text', json: 'tooLong' });
  });
});
