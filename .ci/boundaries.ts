/**
 * The import boundaries of the codebase, checked on every `npm run lint` (oxlint has no rule that can say
 * "a feature never imports another feature" for relative imports):
 *
 * - src/features/<a>/ never imports src/features/<b>/: features meet only in src/app.
 * - src/api/ imports nothing from src/features, src/components, src/hooks, src/app or src/i18n: it is the
 *   QingStor layer, free of UI.
 * - src/components/, src/hooks/ and src/lib/ never import src/features/ or src/app/.
 * - mocks/ imports only mocks/ and src/api/ (the shared protocol, schemas and metadata rules).
 * - Server state has one owner: outside src/api, no code writes a query key array (`queryKey: [`); keys
 *   and query options come from the factories in src/api/<area>/queries.ts.
 * - Browser tests and benches wait for conditions, never for time: no `waitForTimeout` in e2e/ or bench/.
 *
 * Usage: node .ci/boundaries.ts [root] — prints each violation as file:line and exits 1 if any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface Violation {
  file: string;
  line: number;
  rule: string;
  text: string;
}

const IMPORT = /(?:^|\s)(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const QUERY_KEY_ARRAY = /\bqueryKey\s*:\s*\[/;
const WAIT_FOR_TIMEOUT = /\.waitForTimeout\s*\(/;

function area(relative: string): string[] {
  return relative.split('/');
}

/** Every rule broken by one import of `file` (both paths relative to the root, '/'-separated). */
export function importViolation(file: string, target: string): string | null {
  const [top, second, third] = area(file);
  const [tTop, tSecond, tThird] = area(target);
  if (top === 'src' && second === 'features' && tTop === 'src' && tSecond === 'features' && tThird !== third) {
    return `feature "${third ?? ''}" imports feature "${tThird ?? ''}" (features meet only in src/app)`;
  }
  if (top === 'src' && second === 'api' && tTop === 'src' && ['features', 'components', 'hooks', 'app', 'i18n'].includes(tSecond ?? '')) {
    return `src/api imports src/${tSecond ?? ''} (the api layer is free of UI)`;
  }
  if (top === 'src' && ['components', 'hooks', 'lib'].includes(second ?? '') && tTop === 'src' && ['features', 'app'].includes(tSecond ?? '')) {
    return `src/${second ?? ''} imports src/${tSecond ?? ''}`;
  }
  if (top === 'mocks' && tTop !== 'mocks' && !(tTop === 'src' && tSecond === 'api')) {
    return `mocks imports ${target} (the emulator may use only mocks/ and src/api/)`;
  }
  return null;
}

/** The violations in one source text. `file` is relative to the root. */
export function checkSource(file: string, source: string): Violation[] {
  const found: Violation[] = [];
  const lines = source.split('\n');
  const isTest = /\.test\.tsx?$/.test(file);
  lines.forEach((text, index) => {
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? '';
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const rule = importViolation(file, target);
      if (rule) found.push({ file, line: index + 1, rule, text: text.trim() });
    }
    if ((file.startsWith('e2e/') || file.startsWith('bench/')) && WAIT_FOR_TIMEOUT.test(text)) {
      found.push({ file, line: index + 1, rule: 'waits for time (waitForTimeout); wait for a condition instead (expect.poll, toHave…, waitFor)', text: text.trim() });
    }
    if (!isTest && file.startsWith('src/') && !file.startsWith('src/api/') && QUERY_KEY_ARRAY.test(text)) {
      found.push({ file, line: index + 1, rule: 'a query key array outside src/api (use a factory from src/api/<area>/queries.ts)', text: text.trim() });
    }
  });
  return found;
}

function* sourceFiles(root: string, dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* sourceFiles(root, relative);
    else if (/\.tsx?$/.test(entry.name)) yield relative;
  }
}

export function checkTree(root: string): Violation[] {
  const found: Violation[] = [];
  for (const dir of ['src', 'mocks', 'e2e', 'bench']) {
    for (const file of sourceFiles(root, dir)) found.push(...checkSource(file, readFileSync(path.join(root, file), 'utf8')));
  }
  return found;
}

if (import.meta.main) {
  const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
  const violations = checkTree(root);
  for (const v of violations) process.stderr.write(`${v.file}:${v.line}: ${v.rule}\n    ${v.text}\n`);
  if (violations.length > 0) {
    process.stderr.write(`${violations.length} boundary violation(s).\n`);
    process.exit(1);
  }
  process.stdout.write('boundaries: no violations\n');
}
