import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from './en.ts';

/**
 * English messages of some namespaces live in parts (src/i18n/parts/<namespace>.ts) that load with the
 * features showing them. A module that uses such a key without importing its part would render the bare
 * key; these checks keep that from happening and keep the parts' keys out of the entry chunk.
 */
const SRC = join(import.meta.dirname, '..');
const PARTS = readdirSync(join(import.meta.dirname, 'parts'))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.replace(/\.ts$/, ''));

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === import.meta.dirname ? [] : modules(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The split namespaces whose keys `source` uses without importing their part. */
export function missingParts(source: string, parts: readonly string[]): string[] {
  return parts.filter((part) => new RegExp(`['"\`]${part}\\.[a-zA-Z]`).test(source) && !new RegExp(`import '[./]*i18n/parts/${part}\\.ts';`).test(source));
}

describe('message parts', () => {
  it('are the namespaces expected', () => {
    expect(PARTS.sort()).toEqual(['admin', 'buckets', 'connect', 'jobs', 'metadata', 'multipart', 'picker', 'preview', 'transfer', 'ui', 'uploads']);
  });

  it('every module that uses a key of a part imports the part', () => {
    const offenders = modules(SRC).flatMap((path) => missingParts(readFileSync(path, 'utf8'), PARTS).map((part) => `${relative(SRC, path)} uses ${part}.* without importing i18n/parts/${part}.ts`));
    expect(offenders).toEqual([]);
  });

  it('the check itself catches a module that forgets its part', () => {
    expect(missingParts("t('metadata.title')", PARTS)).toEqual(['metadata']);
    expect(missingParts("import '../../i18n/parts/metadata.ts';\nt('metadata.title')", PARTS)).toEqual([]);
    expect(missingParts('tp(`uploads.phase.${x}`)', PARTS)).toEqual(['uploads']);
  });

  it('no key of a part stays in the entry chunk catalog (en.ts)', () => {
    expect(Object.keys(en).filter((key) => PARTS.includes(key.split('.')[0] ?? ''))).toEqual([]);
  });
});
