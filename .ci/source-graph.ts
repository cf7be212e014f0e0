/**
 * The repository's TypeScript sources as a graph, for the checks in this folder (boundaries.ts, cycles.ts,
 * query-keys.ts). Each file is parsed with oxc-parser, so an import split over several lines, a type-only
 * import, a re-export, a dynamic `import('…')` and a worker's `new URL('…', import.meta.url)` are all seen,
 * and text inside strings or comments is never taken for an import.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync, type Program } from 'oxc-parser';

export interface ImportRef {
  /** As written: './x.ts', '../../api/client.ts', 'react', 'node:fs'. */
  spec: string;
  /** For a relative spec, the target relative to the root ('src/api/client.ts'), without any `?query`. */
  target: string | null;
  line: number;
  /** `import type …`, `export type … from`, or every name imported with `type`. */
  typeOnly: boolean;
  kind: 'import' | 'export' | 'dynamic' | 'worker';
}

export interface ParsedSource {
  file: string;
  source: string;
  program: Program;
  imports: ImportRef[];
  /** The comments' text with where each starts. */
  readonly comments: ReadonlyArray<{ value: string; start: number }>;
  lineOf(offset: number): number;
  /** The trimmed text of a 1-based line. */
  lineText(line: number): string;
}

/** The folders and root files whose sources the checks read. */
export const SOURCE_DIRS = ['src', 'mocks', 'e2e', 'bench', '.ci'];
export const ROOT_SOURCES = ['vite.config.ts', 'playwright.config.ts', 'playwright.screenshots.config.ts'];

type Node = { type: string; start: number; end: number; [key: string]: unknown };

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** Calls `visit` for every node below `root`, with its ancestors (nearest last). */
export function walk(root: unknown, visit: (node: Node, ancestors: readonly Node[]) => void): void {
  const ancestors: Node[] = [];
  const go = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) go(item);
      return;
    }
    if (!isNode(value)) return;
    visit(value, ancestors);
    ancestors.push(value);
    for (const key of Object.keys(value)) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      const child = value[key];
      if (typeof child === 'object' && child !== null) go(child);
    }
    ancestors.pop();
  };
  go(root);
}

export type { Node as AstNode };

function resolveTarget(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const bare = spec.replace(/[?#].*$/, '');
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), bare));
}

/** Parses one file (path relative to the root, '/'-separated) and lists what it imports. */
export function parseSource(file: string, source: string): ParsedSource {
  const lang = file.endsWith('.d.ts') ? 'dts' : file.endsWith('.tsx') ? 'tsx' : 'ts';
  const result = parseSync(file, source, { lang, sourceType: 'module' });
  const fatal = result.errors.filter((e) => e.severity === 'Error');
  if (fatal.length > 0) throw new Error(`${file}: cannot parse: ${fatal[0]?.message ?? ''}`);
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const lineOf = (offset: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  const lines = source.split('\n');
  const imports: ImportRef[] = [];
  const add = (spec: string, start: number, typeOnly: boolean, kind: ImportRef['kind']) => {
    imports.push({ spec, target: resolveTarget(file, spec), line: lineOf(start), typeOnly, kind });
  };
  for (const statement of result.module.staticImports) {
    const typeOnly = statement.entries.length > 0 && statement.entries.every((entry) => entry.isType);
    add(statement.moduleRequest.value, statement.start, typeOnly, 'import');
  }
  for (const statement of result.module.staticExports) {
    const from = statement.entries.filter((entry) => entry.moduleRequest !== null);
    const first = from[0]?.moduleRequest;
    if (first) add(first.value, statement.start, from.every((entry) => entry.isType), 'export');
  }
  for (const dynamic of result.module.dynamicImports) {
    // import('…') with a literal: the only dynamic form the bundler can follow, and the only one used here.
    const literal = /^(['"])([^'"]*)\1$/.exec(source.slice(dynamic.moduleRequest.start, dynamic.moduleRequest.end));
    if (literal?.[2] !== undefined) add(literal[2], dynamic.start, false, 'dynamic');
  }
  for (const meta of result.module.importMetas) {
    // new URL('./worker.ts', import.meta.url): how a Web Worker's module is named for the bundler. The
    // parser found `import.meta` here, so this is code, not a comment or a string.
    const before = source.slice(Math.max(0, meta.start - 300), meta.end + 4);
    const url = /new\s+URL\(\s*(['"])(\.[^'"]+)\1\s*,\s*import\.meta\.url$/.exec(before);
    if (url?.[2] !== undefined) add(url[2], meta.start, false, 'worker');
  }
  imports.sort((a, b) => a.line - b.line);
  return {
    file,
    source,
    // Built on first use only: turning the AST into objects costs more than the parse.
    get program() {
      return result.program;
    },
    imports,
    get comments() {
      return result.comments;
    },
    lineOf,
    lineText: (line) => (lines[line - 1] ?? '').trim(),
  };
}

function* sourceFiles(root: string, dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* sourceFiles(root, relative);
    else if (/\.tsx?$/.test(entry.name)) yield relative;
  }
}

/** Every TypeScript source of the tree, parsed. */
export function readTree(root: string): ParsedSource[] {
  const present = (name: string) => existsSync(path.join(root, name));
  const files = [...SOURCE_DIRS.filter(present).flatMap((dir) => [...sourceFiles(root, dir)]), ...ROOT_SOURCES.filter(present)];
  return files.map((file) => parseSource(file, readFileSync(path.join(root, file), 'utf8')));
}
