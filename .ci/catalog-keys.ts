/**
 * Every message is shown somewhere (run by `npm run lint`, rule tests in catalog-keys.test.ts): each key of
 * the English catalog (src/i18n/en.ts and the parts in src/i18n/parts/, which define `MessageKey`; the
 * Chinese catalog must have the same keys by its type) is named by the console's code, so a catalog does
 * not keep the words of a screen that is gone.
 *
 * A key counts as named when the code (src/, tests and the catalogs themselves excepted) holds it as a
 * string, holds its plural base (`tp('x.count', n)` names `x.count.one` and `x.count.other`), or builds it
 * from a template whose fixed head it starts with (`` t(`uploads.state.${state}`) `` names every
 * `uploads.state.*`). Keys are typed (`MessageKey`), so a key the code builds is always one of these forms.
 *
 * Usage: node .ci/catalog-keys.ts [root] — prints each unused key and exits 1 if any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const CATALOG = /^src\/i18n\/(?:en\.ts|zh-cn\.ts|parts\/[\w-]+\.ts)$/;
const ENGLISH = /^src\/i18n\/(?:en\.ts|parts\/[\w-]+\.ts)$/;
const TEST = /\.test\.tsx?$/;
const PLURAL = /\.(?:zero|one|two|few|many|other)$/;

/** The keys a catalog module declares, one `'key': …` a line. */
export function catalogKeys(source: string): string[] {
  return [...source.matchAll(/^\s*'([\w.-]+)':/gm)].map((m) => m[1] ?? '');
}

export interface KeyUsage {
  /** Every quoted string of the code. */
  strings: Set<string>;
  /** The fixed heads of template literals that go on with `${`, when they look like a key's start (`a.b.`). */
  heads: Set<string>;
}

/** The strings and template heads of some code. */
export function keyUsage(code: string): KeyUsage {
  const strings = new Set<string>();
  const heads = new Set<string>();
  for (const m of code.matchAll(/'([\w.-]+)'|"([\w.-]+)"|`([\w.-]+)`/g)) strings.add(m[1] ?? m[2] ?? m[3] ?? '');
  for (const m of code.matchAll(/`([a-zA-Z][\w-]*(?:\.[\w-]+)*\.)\$\{/g)) heads.add(m[1] ?? '');
  return { strings, heads };
}

/** The keys the code never names (see the module comment), sorted. */
export function unusedKeys(keys: Iterable<string>, usage: KeyUsage): string[] {
  const heads = [...usage.heads];
  const named = (key: string) =>
    usage.strings.has(key) || (PLURAL.test(key) && usage.strings.has(key.replace(PLURAL, ''))) || heads.some((head) => key.startsWith(head));
  return [...new Set(keys)].filter((key) => !named(key)).sort();
}

function sourceFiles(root: string, dir = 'src'): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(root, file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The unused keys of the tree at `root`. */
export function checkTree(root: string): string[] {
  const files = sourceFiles(root);
  const keys = files.filter((f) => ENGLISH.test(f)).flatMap((f) => catalogKeys(readFileSync(path.join(root, f), 'utf8')));
  const code = files
    .filter((f) => !CATALOG.test(f) && !TEST.test(f))
    .map((f) => readFileSync(path.join(root, f), 'utf8'))
    .join('\n');
  return unusedKeys(keys, keyUsage(code));
}

if (import.meta.main) {
  const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
  const unused = checkTree(root);
  for (const key of unused) process.stderr.write(`${key}: in the catalogs, named by no code (remove it from src/i18n/en.ts or its part, and from zh-cn.ts)\n`);
  if (unused.length > 0) {
    process.stderr.write(`${unused.length} catalog key(s) no code uses.\n`);
    process.exit(1);
  }
  process.stdout.write('catalogs: every message key is named by the code\n');
}
