/**
 * Docs that stay true (run by `npm run lint`, unit-tested in docs-paths.test.ts): in every README.md of
 * the repository, every backticked repo path exists, every relative link and image resolves, every
 * `npm run <script>` names a script of package.json, and no command runs a TypeScript file with a bare
 * `node` (that is the system's Node, which may be older than the one `npm ci` installs: an npm script
 * runs on the right one). In the code's comments, every path from a top folder of the tree
 * (`src/api/cors/rule.ts`) exists, and so does every test file named (`boot-preload.test.ts`).
 *
 * What counts as a repo path (isRepoPath): a backticked span without spaces that ends in a known file
 * extension or holds a '/', and is none of these: a URL, a server path (`/uploads`), a glob or a
 * placeholder (`*`, `<bucket>`, `…`, `DIR/…`), a MIME type, an npm package, something built or installed
 * (`dist/`, `node_modules/`), or one of NOT_PATHS. Code blocks are commands and code, not paths.
 *
 * A path is found when it exists relative to its README's folder or to the root, or when it ends a path
 * of the tree (the map says "open `ui/upload-host.ts`" inside the paragraph about src/features/upload-queue):
 * so a renamed or deleted file is caught, while a README can name files as a reader of it would.
 *
 * Usage: node .ci/docs-paths.ts [root] — prints each problem as file:line and exits 1 if any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readTree, type ParsedSource } from './source-graph.ts';

export interface DocProblem {
  file: string;
  line: number;
  problem: string;
}

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'test-results', 'playwright-report', 'blob-report', '.vite', '.qingstor-test']);
const EXTENSIONS = /\.(?:tsx?|mts|js|mjs|cjs|json|md|css|html|sh|png|jpe?g|svg|ya?ml|txt|sqlite|webmanifest)$/;
const MIME_TYPES = /^(?:text|application|image|audio|video|multipart|font|message|model)\/[\w.+-]+$/;
const GENERATED = ['dist/', 'node_modules/'];
/** Spans that look like paths but name something else. */
const NOT_PATHS: ReadonlyMap<string, string> = new Map([
  ['a/b', 'an object key (src/api/README.md, key encoding)'],
  ['dir/', 'an object key (src/api/README.md, folders)'],
]);

/** Whether a backticked span names a file or folder of this repository. */
export function isRepoPath(span: string, packages: ReadonlySet<string> = new Set()): boolean {
  if (NOT_PATHS.has(span)) return false;
  if (/\s/.test(span) || span.includes('://')) return false;
  if (/^[/~@.-]/.test(span) && !span.startsWith('./') && !span.startsWith('.ci/') && !/^\.[\w-]+\//.test(span)) return false;
  if (/[*?<>{}[\]…|$=:,()'"⟨⟩#%]/.test(span)) return false;
  if (MIME_TYPES.test(span)) return false;
  const first = span.split('/')[0] ?? '';
  if (/^[A-Z][A-Z0-9_]*$/.test(first) && span.includes('/')) return false; // DIR/records.sqlite, W/
  if (packages.has(first) || packages.has(span.split('/').slice(0, 2).join('/'))) return false;
  if (GENERATED.some((g) => span === g.slice(0, -1) || span.startsWith(g))) return false;
  return EXTENSIONS.test(span) || span.includes('/');
}

interface TreeIndex {
  files: Set<string>;
  dirs: Set<string>;
}

function indexTree(root: string, dir = '', index: TreeIndex = { files: new Set(), dirs: new Set() }): TreeIndex {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      index.dirs.add(relative);
      indexTree(root, relative, index);
    } else {
      index.files.add(relative);
    }
  }
  return index;
}

function exists(tree: TreeIndex, relative: string): boolean {
  const clean = relative.replace(/\/$/, '');
  return tree.files.has(clean) || tree.dirs.has(clean);
}

/** Whether a path named in the README at `readme` is in the tree. */
function found(tree: TreeIndex, readme: string, span: string): boolean {
  const folder = path.posix.dirname(readme);
  const fromReadme = path.posix.normalize(path.posix.join(folder, span));
  if (!fromReadme.startsWith('../') && exists(tree, fromReadme)) return true;
  if (exists(tree, path.posix.normalize(span))) return true;
  const tail = `/${span.replace(/^\.\//, '').replace(/\/$/, '')}`;
  const ends = (p: string) => p.endsWith(tail);
  return [...tree.files].some(ends) || [...tree.dirs].some(ends);
}

interface Snippet {
  line: number;
  text: string;
  /** Inside a fenced code block. */
  code: boolean;
}

/** The inline code spans (outside code blocks), the link targets and the lines of code blocks. */
function snippets(markdown: string): { spans: Snippet[]; links: Snippet[]; code: Snippet[] } {
  const spans: Snippet[] = [];
  const links: Snippet[] = [];
  const code: Snippet[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, index) => {
    const line = index + 1;
    if (/^\s*```/.test(text)) {
      fenced = !fenced;
      return;
    }
    if (fenced) {
      code.push({ line, text, code: true });
      return;
    }
    for (const match of text.matchAll(/`([^`]+)`/g)) spans.push({ line, text: match[1] ?? '', code: false });
    const prose = text.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) links.push({ line, text: match[1] ?? '', code: false });
  });
  return { spans, links, code };
}

/** A backticked command can run over a line break (`npm run shots:manage -- <console URL>`): join the two lines. */
function joinedSpans(markdown: string): Snippet[] {
  const out: Snippet[] = [];
  let fenced = false;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    if (/^\s*```/.test(text)) fenced = !fenced;
    if (fenced || !text.includes('`')) continue;
    const ticks = (text.match(/`/g) ?? []).length;
    if (ticks % 2 === 1 && i + 1 < lines.length) {
      const rest = lines[i + 1] ?? '';
      const joined = `${text.slice(text.lastIndexOf('`'))} ${rest.slice(0, rest.indexOf('`') + 1)}`;
      const match = /^`([^`]+)`$/.exec(joined);
      if (match) out.push({ line: i + 1, text: match[1] ?? '', code: false });
    }
  }
  return out;
}

/** The problems of one README; `readme` is its path relative to the root. */
export function checkReadme(readme: string, markdown: string, tree: TreeIndex, scripts: ReadonlySet<string>, packages: ReadonlySet<string>): DocProblem[] {
  const problems: DocProblem[] = [];
  const add = (line: number, problem: string) => problems.push({ file: readme, line, problem });
  const { spans, links, code } = snippets(markdown);
  for (const span of spans) {
    if (isRepoPath(span.text, packages) && !found(tree, readme, span.text)) add(span.line, `\`${span.text}\` is no file or folder of the repository`);
  }
  for (const link of links) {
    const target = link.text.replace(/#.*$/, '');
    if (target === '' || /^[a-z]+:/i.test(target)) continue;
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(readme), decodeURI(target)));
    if (resolved.startsWith('../') || !exists(tree, resolved)) add(link.line, `link to ${link.text}, which does not resolve from ${readme}`);
  }
  for (const snippet of [...spans, ...joinedSpans(markdown), ...code]) {
    for (const match of snippet.text.matchAll(/\bnpm run ([\w:.-]+)/g)) {
      if (!scripts.has(match[1] ?? '')) add(snippet.line, `\`npm run ${match[1] ?? ''}\`: package.json has no such script`);
    }
    for (const match of snippet.text.matchAll(/(?:^|[\s;&|(])node ((?:\.\/)?[\w./-]+\.tsx?)\b/g)) {
      add(snippet.line, `\`node ${match[1] ?? ''}\` runs on the system's Node: give it an npm script (package.json runs scripts on the Node it installs)`);
    }
  }
  return problems.sort((a, b) => a.line - b.line);
}

const COMMENT_PATH = /(?<![\w/.@-])((?:src|mocks|e2e|bench|public|\.ci)\/[\w./-]*[\w-]\.(?:tsx?|json|md|css|html|js|sh))(?![\w/])/g;
const COMMENT_TEST = /(?<![\w/.@-])([\w-]+\.(?:test|spec)\.tsx?)(?![\w/])/g;

/** Paths named in one source file's comments that are not in the tree. */
export function checkComments(parsed: ParsedSource, tree: TreeIndex, basenames: ReadonlySet<string>): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const comment of parsed.comments) {
    for (const match of comment.value.matchAll(COMMENT_PATH)) {
      const named = match[1] ?? '';
      if (!exists(tree, named)) problems.push({ file: parsed.file, line: parsed.lineOf(comment.start + 2 + (match.index ?? 0)), problem: `the comment names ${named}, which is not in the tree` });
    }
    for (const match of comment.value.matchAll(COMMENT_TEST)) {
      const named = match[1] ?? '';
      if (!basenames.has(named)) problems.push({ file: parsed.file, line: parsed.lineOf(comment.start + 2 + (match.index ?? 0)), problem: `the comment names the test ${named}, which is not in the tree` });
    }
  }
  return problems.sort((a, b) => a.line - b.line);
}

export function checkDocs(root: string): DocProblem[] {
  const tree = indexTree(root);
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const scripts = new Set(Object.keys(manifest.scripts ?? {}));
  const packages = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
  const readmes = [...tree.files].filter((f) => path.posix.basename(f) === 'README.md').sort();
  const basenames = new Set([...tree.files].map((f) => path.posix.basename(f)));
  return [
    ...readmes.flatMap((readme) => checkReadme(readme, readFileSync(path.join(root, readme), 'utf8'), tree, scripts, packages)),
    ...readTree(root).flatMap((parsed) => checkComments(parsed, tree, basenames)),
  ];
}

export { indexTree, type TreeIndex };

if (import.meta.main) {
  const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
  const problems = checkDocs(root);
  for (const p of problems) process.stderr.write(`${p.file}:${p.line}: ${p.problem}\n`);
  if (problems.length > 0) {
    process.stderr.write(`${problems.length} docs problem(s).\n`);
    process.exit(1);
  }
  process.stdout.write('docs: every path, link and command in the READMEs holds\n');
}
