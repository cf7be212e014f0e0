/**
 * Small files (run by `npm run lint`, rule tests in file-size.test.ts): no source file under src/, mocks/,
 * e2e/, bench/ or .ci/ is longer than MAX_LINES. A file that grows past it is split along a real seam (a pure
 * model and small views, one dialog per file, an emulator module per concern), not cut at a line number.
 *
 * Not counted: test files (`*.test.ts`, `*.spec.ts`, `*.shots.ts`: a list of cases, each read on its own),
 * pictures, and the READMEs (docs). Exempt by name (EXEMPT): catalogues and generated files, each with why.
 * SPLITTING lists the files still being split, each with its length when it was listed as a ceiling: such a
 * file may shrink but not grow, and once it is within MAX_LINES its entry must go (the check says so).
 *
 * Usage: node .ci/file-size.ts [root] — prints each problem and exits 1 if any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const MAX_LINES = 400;

const ROOTS = ['src', 'mocks', 'e2e', 'bench', '.ci'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', 'blob-report', 'screenshots']);
const SOURCE = /\.(?:tsx?|mts|cts|js|mjs|cjs|css|html|json|sh)$/;
const TEST = /\.(?:test|spec|shots)\.tsx?$/;

/** Catalogues and generated files: long by nature, read by lookup, never top to bottom. */
export const EXEMPT: ReadonlyMap<string, string> = new Map([
  ['src/i18n/zh-cn.ts', 'the Chinese catalogue: one line per message of every feature'],
  ['src/api/swagger-contract.json', "generated from QingStor's API specs (src/api/swagger-contract.ts)"],
]);

/** Files still being split, with their length when listed: a ceiling, not a licence to grow. */
export const SPLITTING: ReadonlyMap<string, number> = new Map();

export interface SizeProblem {
  file: string;
  problem: string;
}

/** Lines of a text as `wc -l` counts them, plus an unterminated last line. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  return text.endsWith('\n') ? n : n + 1;
}

/** Whether the size rule applies to a repository path. */
export function isCounted(file: string): boolean {
  return SOURCE.test(file) && !TEST.test(file) && !EXEMPT.has(file);
}

/** The problems of a set of files (path → line count); `splitting` and `exempt` default to this repository's lists. */
export function checkSizes(
  files: ReadonlyMap<string, number>,
  splitting: ReadonlyMap<string, number> = SPLITTING,
  exempt: ReadonlyMap<string, string> = EXEMPT,
): SizeProblem[] {
  const problems: SizeProblem[] = [];
  for (const [file, lines] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    if (exempt.has(file) || !isCounted(file)) continue;
    const ceiling = splitting.get(file);
    if (ceiling === undefined) {
      if (lines > MAX_LINES) problems.push({ file, problem: `${lines} lines, more than ${MAX_LINES}: split it along a seam (a model and small views, one dialog per file)` });
    } else if (lines > ceiling) {
      problems.push({ file, problem: `${lines} lines, more than its ceiling of ${ceiling} while it is being split: it may shrink, not grow` });
    } else if (lines <= MAX_LINES) {
      problems.push({ file, problem: `${lines} lines, within ${MAX_LINES} now: remove it from SPLITTING in .ci/file-size.ts` });
    }
  }
  for (const file of [...splitting.keys(), ...exempt.keys()]) {
    if (!files.has(file)) problems.push({ file, problem: 'listed in .ci/file-size.ts but not in the tree: remove its entry' });
  }
  return problems;
}

/** Every counted-or-listed file under the roots, with its line count. */
export function readSizes(root: string): Map<string, number> {
  const sizes = new Map<string, number>();
  const visit = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) visit(file);
      } else if (entry.isFile() && SOURCE.test(entry.name)) {
        sizes.set(file, lineCount(readFileSync(path.join(root, file), 'utf8')));
      }
    }
  };
  for (const top of ROOTS) visit(top);
  return sizes;
}

if (import.meta.main) {
  const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
  const problems = checkSizes(readSizes(root));
  for (const p of problems) process.stderr.write(`${p.file}: ${p.problem}\n`);
  if (problems.length > 0) {
    process.stderr.write(`${problems.length} file size problem(s).\n`);
    process.exit(1);
  }
  process.stdout.write(`file sizes: every source file within ${MAX_LINES} lines (${SPLITTING.size} being split, under their ceilings)\n`);
}
