import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Each protocol fact of this folder has one definition: these patterns, which spell a fact out instead of
 * importing it, match nowhere else in the product code (src, mocks, bench; tests may spell values out to
 * check them). Comments are skipped. Run: npx vitest run src/api/protocol/one-definition.test.ts
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const HOME = 'src/api/protocol/';

const COPIES: { fact: string; pattern: RegExp }[] = [
  { fact: 'ETag unquoting (etag.ts)', pattern: /function\s+(?:un)?quoteEtag|function\s+bareEtag|replace\(\/\^"\(\.\*\)"\$\/|startsWith\('W\/'\)/ },
  { fact: 'HTTP-date formatting and parsing (http-date.ts)', pattern: /toUTCString\(\)|function\s+(?:parseHttpDate|formatHttpDate|httpDate|rfc1123)\b|'Mon', 'Tue'|'Sun', 'Mon'/ },
  { fact: 'the standard metadata headers (headers.ts)', pattern: /\b(?:STANDARD_HEADERS|STANDARD_METADATA_HEADERS)\s*=/ },
  { fact: 'the x-qs-meta- prefix (headers.ts)', pattern: /['`"]x-qs-meta-(?:['`"]|\$\{)|>\s*x-qs-meta-\s*[<{]/ },
  { fact: 'hop-by-hop headers (headers.ts)', pattern: /'keep-alive'|'proxy-connection'/ },
  {
    fact: 'limits (limits.ts)',
    pattern:
      /\b(?:MAX_PART_NUMBER|MAX_PARTS|MIN_PART_SIZE|REAL_MIN_PART_SIZE|QINGSTOR_MIN_PART_SIZE|MAX_PART_SIZE|MAX_OBJECT_SIZE|QINGSTOR_COPY_LIMIT|MAX_KEY_BYTES|METADATA_KEY_MAX_BYTES|METADATA_TOTAL_MAX_BYTES|MAX_DELETE_OBJECTS|MAX_LIST_PARTS_LIMIT|MAX_LIST_UPLOADS_LIMIT|DEFAULT_LIST_LIMIT_MAX)\s*=|\b1023\b/,
  },
  { fact: 'the demo keys and demo minimum part size (demo.ts)', pattern: /QSDEMOACCESSKEYID|qsdemoSecret|\bDEMO_MIN_PART_SIZE\s*=/ },
  { fact: 'the glob matcher (glob.ts)', pattern: /function\s+globMatch|pattern\.split\('\*'\)/ },
];

function* productFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* productFiles(relative);
    } else if (/\.tsx?$/.test(entry.name) && !/\.(?:test|spec)\.tsx?$|test-[\w-]+\.ts$|test-utils\.ts$/.test(entry.name)) {
      yield relative;
    }
  }
}

/** Lines of `source` that are code, with their numbers: block and line comments dropped. */
function codeLines(source: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let inBlock = false;
  source.split('\n').forEach((raw, index) => {
    let text = raw;
    if (inBlock) {
      const end = text.indexOf('*/');
      if (end < 0) return;
      text = text.slice(end + 2);
      inBlock = false;
    }
    const start = text.indexOf('/*');
    if (start >= 0 && !text.slice(0, start).includes("'")) {
      const end = text.indexOf('*/', start + 2);
      if (end < 0) inBlock = true;
      text = end < 0 ? text.slice(0, start) : text.slice(0, start) + text.slice(end + 2);
    }
    const trimmed = text.trim();
    if (trimmed.startsWith('//')) return;
    out.push({ line: index + 1, text: text.replace(/\s\/\/\s.*$/, '') });
  });
  return out;
}

/** The five standard headers in a row, over line breaks: a copy of the list under another name. */
const STANDARD_LIST = /'cache-control',\s*'content-disposition',\s*'content-encoding',\s*'content-type',\s*'expires'/;

export function copiesIn(file: string, source: string): string[] {
  const found: string[] = [];
  if (STANDARD_LIST.test(source)) found.push(`${file} spells out the standard metadata headers (headers.ts)`);
  for (const { line, text } of codeLines(source)) {
    for (const { fact, pattern } of COPIES) if (pattern.test(text)) found.push(`${file}:${line} spells out ${fact}: ${text.trim()}`);
  }
  return found;
}

describe('one definition per protocol fact', () => {
  it('finds a copy when one is written (the check can fail)', () => {
    expect(copiesIn('x.ts', "const bare = etag.replace(/^\"(.*)\"$/, '$1');")).toHaveLength(1);
    expect(copiesIn('x.ts', 'export const MAX_PART_NUMBER = 10000;')).toHaveLength(1);
    expect(copiesIn('x.ts', "h.set(`x-qs-meta-${key}`, value);")).toHaveLength(1);
    expect(copiesIn('x.ts', '<span>x-qs-meta-</span>')).toHaveLength(1);
    expect(copiesIn('x.ts', "field.startsWith('x-qs-meta-')")).toHaveLength(1);
    expect(copiesIn('x.ts', "const list = [\n  'cache-control',\n  'content-disposition',\n  'content-encoding',\n  'content-type',\n  'expires',\n];")).toHaveLength(1);
    expect(copiesIn('x.ts', "expose: ['x-qs-meta-author']")).toHaveLength(0);
    expect(copiesIn('x.ts', "const secret = 'qsdemoSecretAccessKey0000000000000000000';")).toHaveLength(1);
    expect(copiesIn('x.ts', '/** keys are 1-1023 bytes */\nconst ok = true;')).toHaveLength(0);
  });

  it('the product code outside src/api/protocol spells none of them out', () => {
    const found: string[] = [];
    for (const folder of ['src', 'mocks', 'bench']) {
      for (const file of productFiles(folder)) {
        if (file.startsWith(HOME)) continue;
        found.push(...copiesIn(file, readFileSync(path.join(ROOT, file), 'utf8')));
      }
    }
    expect(found).toEqual([]);
  });
});
