/**
 * The import boundaries of the codebase, checked on every `npm run lint` (oxlint has no rule that can say
 * "a feature never imports another feature" for relative imports). The rules are the table ZONES below:
 * every source file belongs to one zone (the first row that matches it), and each row lists what the
 * zone's code may import, as allow-lists: zones (a zone may always import itself) and npm packages.
 * Tests (TEST_FILE, TEST_SUPPORT) may import what their zone's code may, plus the row's `tests` entries and
 * any package; production code never imports a test file. A folder in SURFACES is reached through its
 * one public module only.
 *
 * Also checked here: no import cycles, type-only imports included (cycles.ts); browser tests and benches
 * wait for conditions, never for time (no `waitForTimeout` in e2e/ or bench/); in src/ outside src/api no
 * code builds a query key array by hand, tests included (query-keys.ts: keys come from the factories in
 * src/api/<area>/queries.ts) and no code writes its own `mutationFn` (a write is a mutation factory there
 * that owns its invalidation; INLINE_MUTATIONS lists the files still being moved, each entry refused once
 * its file has none left).
 *
 * Usage: node .ci/boundaries.ts [root] — prints each violation as file:line and exits 1 if any.
 */
import path from 'node:path';
import { findCycles } from './cycles.ts';
import { findHandBuiltKeys, findInlineMutations } from './query-keys.ts';
import { parseSource, readTree, type ImportRef, type ParsedSource } from './source-graph.ts';

export interface Zone {
  /** Its name in allow-lists. `*` stands for one folder name: each feature is a zone of its own. */
  name: string;
  /** Folders (ending in '/') and files, relative to the root; `*` matches one folder name. */
  files: string[];
  /** Zones the zone's code may import; a name ending in `*` allows every zone whose name starts so. */
  imports: string[];
  /** Packages the zone's code may import: names, `node:*` for Node's built-in modules, or `*` for any. */
  packages: string[];
  /** Zones its tests may import besides `imports`. */
  tests?: string[];
  /** Why, shown with a violation. */
  why: string;
}

/** UI libraries: React and what renders with it. */
const UI = ['react', 'react-dom', '@tanstack/react-query', '@tanstack/react-virtual', 'react-hook-form', '@hookform/resolvers', 'lucide-react', '@radix-ui/react-context-menu', '@radix-ui/react-dropdown-menu'];
/** What src/ tests may reach besides their zone's imports: the shared test helpers and the real emulator. */
const EMULATOR = ['mocks/node.ts', 'mocks/server', 'mocks/emulator.ts', 'mocks/seed.ts', 'mocks/errors.ts', 'mocks/auth'];
const SRC_TESTS = ['src/test-support', 'src/test-data', ...EMULATOR];

export const ZONES: readonly Zone[] = [
  // ── the console (src/) ────────────────────────────────────────────────────────────────────────────
  { name: 'src/main.tsx', files: ['src/main.tsx'], imports: ['src/app', 'src/app/demo-backend.ts', 'src/hooks', 'src/i18n', 'src/lib'], packages: ['react', 'react-dom'],
    why: 'the entry point boots the app' },
  { name: 'src/app/demo-backend.ts', files: ['src/app/demo-backend.ts'], imports: ['mocks/browser'], packages: [],
    why: 'the one module of src/ that reaches the emulator (demo mode)' },
  { name: 'src/app', files: ['src/app/'], imports: ['src/features/*', 'src/api', 'src/components', 'src/hooks', 'src/i18n', 'src/lib', 'src/styles', 'src/app/demo-backend.ts'], packages: [...UI, 'zod'],
    tests: SRC_TESTS, why: 'src/app composes the features; it reaches the emulator only through demo-backend.ts' },
  { name: 'src/features/*', files: ['src/features/*/'], imports: ['src/api', 'src/components', 'src/hooks', 'src/i18n', 'src/lib', 'src/styles'], packages: [...UI, 'zod', 'idb', 'hash-wasm', 'pdfjs-dist'],
    tests: SRC_TESTS, why: 'features never import each other nor src/app: they meet only in src/app' },
  { name: 'src/components', files: ['src/components/'], imports: ['src/api', 'src/hooks', 'src/i18n', 'src/lib', 'src/styles'], packages: [...UI, 'zod'],
    tests: SRC_TESTS, why: 'shared UI knows no feature and no route' },
  { name: 'src/hooks', files: ['src/hooks/'], imports: ['src/api', 'src/lib'], packages: ['react', '@tanstack/react-query'],
    tests: SRC_TESTS, why: 'shared hooks know no feature, no route and no component' },
  { name: 'src/i18n', files: ['src/i18n/'], imports: ['src/lib'], packages: ['react'],
    tests: [...SRC_TESTS, 'src/api'], why: 'the catalogs depend on nothing but the framework-free helpers (every message parameter is shown by lib/visible-text.ts)' },
  { name: 'src/lib', files: ['src/lib/'], imports: [], packages: ['react', 'zod'],
    tests: SRC_TESTS, why: 'framework-free helpers depend on nothing of the console' },
  { name: 'src/api', files: ['src/api/'], imports: ['src/lib'], packages: ['zod', 'hash-wasm', '@tanstack/react-query'],
    tests: SRC_TESTS, why: 'the api layer is free of UI: it speaks QingStor and nothing else' },
  { name: 'src/serve', files: ['src/serve/'], imports: ['src/api'], packages: ['node:*', 'sirv', 'zod', 'vite'],
    tests: [...SRC_TESTS, 'src/app'], why: 'the proxy and the build steps share only the protocol with the console' },
  { name: 'src/styles', files: ['src/styles/'], imports: [], packages: [], why: 'plain CSS' },
  { name: 'src/test-support', files: ['src/test-support/', 'src/test-setup.ts'], imports: [], packages: ['*'],
    tests: SRC_TESTS, why: 'helpers of the unit tests' },
  { name: 'src/test-data', files: ['src/test-data/'], imports: [], packages: [],
    why: 'cases both the unit tests and the journeys check (the hidden names): plain data, importing nothing; no console code imports it' },
  // ── the emulator (mocks/), bottom layer first ─────────────────────────────────────────────────────
  { name: 'mocks/errors.ts', files: ['mocks/errors.ts'], imports: ['src/api'], packages: [],
    why: "the emulator's error type is its bottom layer" },
  { name: 'mocks/store', files: ['mocks/store/'], imports: ['mocks/errors.ts', 'src/api'], packages: ['node:*', 'idb', 'hash-wasm', 'zod'],
    tests: ['mocks/*'], why: 'the store keeps state: it knows no HTTP, no msw and no handler' },
  { name: 'mocks/auth', files: ['mocks/auth/'], imports: ['mocks/errors.ts', 'src/api'], packages: ['node:*', 'zod'],
    tests: ['mocks/*'], why: 'signatures and ACLs are pure functions over a request' },
  { name: 'mocks/http', files: ['mocks/http/'], imports: ['mocks/errors.ts', 'src/api'], packages: ['node:*', 'busboy'],
    tests: ['mocks/*'], why: 'HTTP utilities sit below the handlers and never import them' },
  { name: 'mocks/handlers', files: ['mocks/handlers/'], imports: ['mocks/errors.ts', 'mocks/store', 'mocks/auth', 'mocks/http', 'src/api'], packages: ['msw', 'zod'],
    tests: ['mocks/*'], why: 'handlers turn requests into store calls; the adapters assemble them' },
  { name: 'mocks/seed-media.ts', files: ['mocks/seed-media.ts', 'mocks/seed-video.ts'], imports: [], packages: [],
    tests: ['mocks/*'], why: 'the demo pictures and documents are drawn from nothing but code' },
  { name: 'mocks/seed.ts', files: ['mocks/seed.ts'], imports: ['mocks/store', 'mocks/auth', 'mocks/seed-media.ts', 'src/api'], packages: [],
    tests: ['mocks/*'], why: 'the demo data is written into a store' },
  { name: 'mocks/emulator.ts', files: ['mocks/emulator.ts'], imports: ['mocks/errors.ts', 'mocks/store', 'mocks/auth', 'mocks/http', 'mocks/handlers', 'mocks/seed.ts', 'src/api'], packages: ['msw'],
    tests: ['mocks/*'], why: 'the emulator assembles store, auth and handlers; the adapters run it' },
  { name: 'mocks/browser', files: ['mocks/browser.ts', 'mocks/browser-fetch.ts', 'mocks/browser-xhr.ts', 'mocks/demo-link.ts', 'mocks/seed-durability.ts'], imports: ['mocks/errors.ts', 'mocks/store', 'mocks/seed.ts', 'mocks/emulator.ts', 'src/api'], packages: ['msw', '@mswjs/interceptors'],
    tests: ['mocks/*'], why: "the browser adapter (demo mode's service worker) runs the emulator" },
  { name: 'mocks/node.ts', files: ['mocks/node.ts'], imports: ['mocks/emulator.ts', 'src/api'], packages: ['msw'],
    tests: ['mocks/*'], why: 'the Node adapter (unit tests) runs the emulator' },
  { name: 'mocks/server', files: ['mocks/server.ts', 'mocks/server-*.ts', 'mocks/sdk-harness.ts', 'mocks/sdk-qingstor.d.ts'],
    imports: ['mocks/errors.ts', 'mocks/store', 'mocks/http', 'mocks/handlers', 'mocks/emulator.ts', 'src/api'], packages: ['node:*', 'msw', 'zod'],
    tests: ['mocks/*'], why: 'the HTTP server adapter runs the emulator' },
  { name: 'mocks tests', files: ['mocks/*.test.ts'], imports: [], packages: [],
    tests: ['mocks/*', 'src/api'], why: 'tests of the whole emulator' },
  // ── tests, benches, checks and configuration ──────────────────────────────────────────────────────
  { name: 'e2e', files: ['e2e/'], imports: ['mocks/server', 'mocks/emulator.ts', 'mocks/seed.ts', 'src/api', 'src/serve', 'src/test-data'], packages: ['node:*', '@playwright/test', '@axe-core/playwright', 'msw'],
    why: 'journeys drive the built console and talk to the emulator and the proxy' },
  { name: 'bench', files: ['bench/'], imports: ['mocks/*', 'src/api', 'src/serve', 'src/features/metadata'], packages: ['node:*', '@playwright/test', 'zod', 'vite', 'react', 'react-dom', 'msw'],
    why: 'benches measure the emulator, the api layer, the built console and the metadata save, each beside a floor page they build (vite; react for the minimal React app, msw to ask the emulator in a page)' },
  { name: '.ci', files: ['.ci/'], imports: [], packages: ['node:*', 'oxc-parser'], why: 'the checks read the tree; they import none of it' },
  { name: 'config', files: ['vite.config.ts', 'playwright.config.ts', 'playwright.screenshots.config.ts'], imports: ['src/app', 'src/serve'], packages: ['node:*', 'vitest', 'vite', '@vitejs/plugin-react', '@playwright/test'],
    why: 'build and test configuration' },
];

/** Folders that the rest of the code reaches through one module, their public surface (tests excepted). */
export const SURFACES: ReadonlyArray<{ folder: string; entry: string; why: string }> = [
  { folder: 'src/features/upload-queue/engine/', entry: 'src/features/upload-queue/engine/index.ts', why: "the upload engine's public surface" },
];

/** Unit tests and the helpers named like them (test-utils.ts, test-fakes.ts). */
const TEST_FILE = /\.test\.tsx?$|(?:^|\/)test-[\w-]+\.tsx?$/;
/** Other files that only tests use. */
const TEST_SUPPORT = [
  'src/test-support/',
  'src/test-setup.ts',
  'src/api/swagger-contract.ts', // records the swagger contract that src/api/schemas.test.ts checks against
  'mocks/sdk-harness.ts', // the official SDK as a client, for mocks/sdk-conformance.test.ts
  'mocks/sdk-qingstor.d.ts',
];

export interface Violation {
  file: string;
  line: number;
  rule: string;
  text: string;
}

function matchesPath(pattern: string, file: string): boolean {
  const folder = pattern.endsWith('/');
  const parts = pattern.split('/').filter((p) => p !== '');
  const segments = file.split('/');
  if (folder ? segments.length <= parts.length : segments.length !== parts.length) return false;
  return parts.every((part, i) => {
    const segment = segments[i] ?? '';
    if (part === '*') return true;
    if (part.includes('*')) return new RegExp(`^${part.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`).test(segment);
    return part === segment;
  });
}

/** The zone of a file, with `*` in its name replaced by the folder it stands for. */
export function zoneOf(file: string): { zone: Zone; name: string } | null {
  if (!zoneCache.has(file)) zoneCache.set(file, findZone(file));
  return zoneCache.get(file) ?? null;
}

const zoneCache = new Map<string, { zone: Zone; name: string } | null>();

function findZone(file: string): { zone: Zone; name: string } | null {
  for (const zone of ZONES) {
    const pattern = zone.files.find((p) => matchesPath(p, file));
    if (pattern === undefined) continue;
    const star = pattern.split('/').indexOf('*');
    return { zone, name: star < 0 ? zone.name : zone.name.replace('*', file.split('/')[star] ?? '') };
  }
  return null;
}

export function isTestFile(file: string): boolean {
  return TEST_FILE.test(file) || TEST_SUPPORT.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));
}

function allows(list: readonly string[], name: string): boolean {
  return list.some((entry) => (entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : entry === name));
}

function packageOf(spec: string): string {
  if (spec.startsWith('node:')) return 'node:*';
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec);
}

/** The rule one import of `file` breaks, or null. */
export function importViolation(file: string, ref: Pick<ImportRef, 'spec' | 'target'>): string | null {
  const from = zoneOf(file);
  if (!from) return null; // reported once per file by checkSources
  const test = isTestFile(file);
  if (ref.target === null) {
    const pkg = packageOf(ref.spec);
    if (test || allows(from.zone.packages, pkg)) return null;
    return `${from.name} imports package ${pkg}, not in its allow-list (${from.zone.why})`;
  }
  if (!test && isTestFile(ref.target)) return `production code imports the test helper ${ref.target}`;
  const surface = SURFACES.find((s) => ref.target?.startsWith(s.folder) && !file.startsWith(s.folder));
  if (surface && !test && ref.target !== surface.entry) return `imports ${ref.target} past ${surface.entry} (${surface.why})`;
  const to = zoneOf(ref.target);
  if (!to) return `imports ${ref.target}, which is in no zone of .ci/boundaries.ts`;
  if (to.name === from.name) return null;
  if (allows(from.zone.imports, to.name) || (test && allows(from.zone.tests ?? [], to.name))) return null;
  return `${from.name} imports ${to.name} (${from.zone.why})`;
}

const WAIT_FOR_TIMEOUT = /\.waitForTimeout\s*\(/;

/**
 * Files whose writes are still written inline (`mutationFn` outside src/api) while another change moves them
 * into src/api factories; each names the writes. Remove an entry once its file has none: the check says so.
 */
export const INLINE_MUTATIONS: ReadonlyMap<string, string> = new Map();

/** The violations in parsed sources (paths relative to the root); `inlineMutationsPending` defaults to INLINE_MUTATIONS. */
export function checkSources(sources: readonly ParsedSource[], inlineMutationsPending: ReadonlyMap<string, string> = INLINE_MUTATIONS): Violation[] {
  const found: Violation[] = [];
  for (const parsed of sources) {
    const { file } = parsed;
    if (!zoneOf(file)) found.push({ file, line: 1, rule: 'in no zone: add it to the table in .ci/boundaries.ts', text: file });
    for (const ref of parsed.imports) {
      const rule = importViolation(file, ref);
      if (rule) found.push({ file, line: ref.line, rule, text: parsed.lineText(ref.line) });
    }
    if (file.startsWith('e2e/') || file.startsWith('bench/')) {
      parsed.source.split('\n').forEach((text, index) => {
        if (WAIT_FOR_TIMEOUT.test(text)) {
          found.push({ file, line: index + 1, rule: 'waits for time (waitForTimeout); wait for a condition instead (expect.poll, toHave…, waitFor)', text: text.trim() });
        }
      });
    }
    if (file.startsWith('src/') && !file.startsWith('src/api/')) {
      for (const key of findHandBuiltKeys(parsed)) {
        found.push({ file, line: key.line, rule: `a query key built outside src/api: ${key.why} (use a factory from src/api/<area>/queries.ts)`, text: parsed.lineText(key.line) });
      }
      const inline = findInlineMutations(parsed);
      if (!inlineMutationsPending.has(file)) {
        for (const m of inline) {
          found.push({ file, line: m.line, rule: 'a write outside src/api: a mutationFn of its own (make it a mutation factory in src/api/<resource>/queries.ts that owns its invalidation)', text: parsed.lineText(m.line) });
        }
      } else if (inline.length === 0) {
        found.push({ file, line: 1, rule: 'no inline mutationFn left: remove its entry from INLINE_MUTATIONS in .ci/boundaries.ts', text: file });
      }
    }
  }
  for (const cycle of findCycles(sources)) {
    const files = [...cycle.files, cycle.files[0]].join(' → ');
    found.push({ file: cycle.files[0] ?? '', line: cycle.line, rule: `import cycle: ${files} (move what they share into a module below them)`, text: cycle.text });
  }
  return found;
}

/** The violations in one source text; `file` is relative to the root. */
export function checkSource(file: string, source: string, inlineMutationsPending?: ReadonlyMap<string, string>): Violation[] {
  return checkSources([parseSource(file, source)], inlineMutationsPending);
}

export function checkTree(root: string): Violation[] {
  return checkSources(readTree(root));
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
