/**
 * Build step: chunk groups made of modules' static imports, read from the module graph once it is built.
 *
 * Rolldown gives every module shared by a few chunks a chunk per set of importers, so a first screen arrived
 * as a score of small files (errors, router, spinner, session, the API client's signing, url, headers, …),
 * each compressed alone and each one more request on the six connections HTTP/1.1 allows before the first
 * row. Two groups join them:
 *
 *   - `entryGroup('src/main.tsx')`: what the entry imports statically. The entry runs all of it before
 *     anything renders, so joining costs no byte: the initial JS stays the same, in fewer files;
 *   - `screensGroup(screens, entry)`: what the screens' views import statically beyond the entry, one chunk
 *     per set of screens that import it (the object browser's first rows and the bucket list share the API
 *     client, signing, URLs, …): no screen loads a byte more, in fewer files; bench/bundle-size.ts weighs
 *     each first screen against its budget.
 */
const SOURCE = /\.[cm]?[jt]sx?$/;

interface GraphContext {
  getModuleIds(): IterableIterator<string>;
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

export interface ClosurePlugin {
  name: string;
  apply: 'build';
  buildEnd(this: GraphContext): void;
}

export interface ClosureGroup {
  plugin: ClosurePlugin;
  /** For a codeSplitting group: whether `id` belongs to it (known once the graph is built). */
  test: (id: string) => boolean;
}

const normalize = (id: string): string => id.replaceAll('\\', '/');

function find(graph: GraphContext, module: string): string {
  const id = [...graph.getModuleIds()].find((candidate) => normalize(candidate).endsWith(`/${module}`));
  if (id === undefined) throw new Error(`chunk groups: ${module} is not in the module graph`);
  return id;
}

/** Every module `starts` import statically, themselves included. */
export function staticClosure(graph: GraphContext, starts: readonly string[]): Set<string> {
  const members = new Set<string>();
  const visit = [...starts];
  while (visit.length > 0) {
    const id = visit.pop() as string;
    if (members.has(id)) continue;
    members.add(id);
    visit.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return members;
}

function group(name: string, compute: (graph: GraphContext) => Set<string>): ClosureGroup {
  let members = new Set<string>();
  return {
    plugin: {
      name,
      apply: 'build',
      buildEnd() {
        members = compute(this);
      },
    },
    test: (id) => members.has(id) && SOURCE.test(id) && !id.startsWith('\0'),
  };
}

/**
 * The static closure of `entry` (a path from the project root, e.g. `src/main.tsx`), less the entry itself:
 * it stays in the entry chunk. It awaits at its top level (the demo backend, the first request), and a
 * chunk that lazily loaded code imports from must have finished evaluating, or that import never settles.
 */
export function entryGroup(entry: string): ClosureGroup {
  return group('qsc-entry-group', (graph) => {
    const start = find(graph, entry);
    const members = staticClosure(graph, [start]);
    members.delete(start);
    return members;
  });
}

export interface ScreensGroup {
  plugin: ClosurePlugin;
  test: (id: string) => boolean;
  /** The chunk a module goes to: one per set of screens that import it. */
  name: (id: string) => string | null;
}

/**
 * What the screens (each a label and its view's modules) import statically beyond `entry`, one chunk per
 * set of screens sharing it: a screen loads only chunks it needs all of, and the modules its view shares
 * with the same other screens arrive as one file, not one file each. The views' own modules keep their
 * chunks (boot-preload.ts finds them by module). The modules only a `solo` screen uses are left out (the demo
 * backend: its code keeps its own chunk, bench/bundle-size.ts weighs it apart).
 */
export function screensGroup(screens: ReadonlyArray<{ label: string; modules: readonly string[] }>, entry: string, solo: readonly string[] = []): ScreensGroup {
  let signature = new Map<string, string>();
  return {
    plugin: {
      name: 'qsc-screens-group',
      apply: 'build',
      buildEnd() {
        const entryMembers = staticClosure(this, [find(this, entry)]);
        const views = new Set(screens.flatMap((screen) => screen.modules.map((module) => find(this, module))));
        const users = new Map<string, string[]>();
        for (const screen of screens) {
          for (const id of staticClosure(this, screen.modules.map((module) => find(this, module)))) {
            if (entryMembers.has(id) || views.has(id)) continue;
            const labels = users.get(id) ?? [];
            if (!labels.includes(screen.label)) labels.push(screen.label);
            users.set(id, labels);
          }
        }
        // What only one of `solo` uses stays where automatic splitting puts it (the demo backend's own chunk).
        const grouped = [...users].filter(([, labels]) => !(labels.length === 1 && solo.includes(labels[0] ?? '')));
        signature = new Map(grouped.map(([id, labels]) => [id, `screens-${labels.sort().join('-')}`]));
      },
    },
    test: (id) => signature.has(id) && SOURCE.test(id) && !id.startsWith('\0'),
    name: (id) => signature.get(id) ?? null,
  };
}
