/**
 * What the object browser's first rows import statically (the code the browser fetches before the first
 * row, src/serve/entry-group.ts): the listing, not the reading and writing calls, the metadata rules they use,
 * or an icon barrel that would put every icon some chunk uses into the entry's chunk group.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree, type ParsedSource } from './source-graph.ts';

const root = path.resolve(import.meta.dirname, '..');
const tree = new Map<string, ParsedSource>(readTree(root).map((source) => [source.file, source]));

/** The modules `starts` import statically (type-only and dynamic imports left out), themselves included. */
function staticClosure(starts: readonly string[]): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = [...starts];
  while (visit.length > 0) {
    const file = visit.pop() as string;
    if (modules.has(file)) continue;
    modules.add(file);
    for (const ref of tree.get(file)?.imports ?? []) {
      if (ref.typeOnly || ref.kind === 'dynamic' || ref.kind === 'worker') continue;
      if (ref.target === null) packages.add(ref.spec);
      else if (tree.has(ref.target)) visit.push(ref.target);
    }
  }
  return { modules, packages };
}

describe("the object browser's first rows", () => {
  // The entry and the bucket route's view modules as src/app/route-views.ts names them (checked below).
  const view = ['src/api/client.ts', 'src/features/object-browser/queries.ts', 'src/app/routes/bucket-route.tsx'];
  const closure = staticClosure([...view, 'src/main.tsx']);

  it('start where the bucket route says its view starts', () => {
    const routes = tree.get('src/app/route-views.ts')?.source ?? '';
    expect(routes).toContain(`modules: [${view.map((m) => `'${m}'`).join(', ')}]`);
  });

  it('import the listing and not the reading or writing calls nor the metadata rules', () => {
    expect(closure.modules.has('src/api/objects/operations.ts')).toBe(true);
    const later = [...closure.modules].filter((file) => /^src\/api\/(objects\/(read|write|queries)\.ts|metadata\/)/.test(file));
    expect(later).toEqual([]);
  });

  it('import icons one by one, not the icon barrel', () => {
    expect([...closure.packages].filter((spec) => spec.startsWith('lucide-react/icons/')).length).toBeGreaterThan(0);
    expect(closure.packages.has('lucide-react')).toBe(false);
  });
});
