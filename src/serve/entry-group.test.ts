import { describe, expect, it } from 'vitest';
import { entryGroup, screensGroup } from './entry-group.ts';

/** A module graph as the build sees it: each module and what it imports statically. */
function graph(edges: Record<string, string[]>) {
  return {
    getModuleIds: () => Object.keys(edges).values(),
    getModuleInfo: (id: string) => (id in edges ? { importedIds: edges[id] ?? [] } : null),
  };
}

const modules = {
  '/r/src/main.tsx': ['/r/src/app.tsx', '/r/node_modules/react/index.js'],
  '/r/src/app.tsx': ['/r/src/router.ts'],
  '/r/src/router.ts': [],
  '/r/node_modules/react/index.js': [],
  '/r/src/routes/bucket.tsx': ['/r/src/api/client.ts', '/r/src/list.tsx', '/r/src/router.ts'],
  '/r/src/routes/home.tsx': ['/r/src/api/client.ts', '/r/src/buckets.tsx'],
  '/r/src/api/client.ts': ['/r/src/api/signing.ts'],
  '/r/src/api/signing.ts': [],
  '/r/src/list.tsx': [],
  '/r/src/buckets.tsx': [],
  '\0vite/preload-helper.js': [],
};

describe('chunk groups from the module graph', () => {
  it("joins the entry's static imports, not the entry itself (its top-level await must not hold a chunk others import)", () => {
    const group = entryGroup('src/main.tsx');
    group.plugin.buildEnd.call(graph(modules));
    const members = Object.keys(modules).filter((id) => group.test(id));
    expect(members.toSorted()).toEqual(['/r/node_modules/react/index.js', '/r/src/app.tsx', '/r/src/router.ts']);
  });

  it('puts what the screens share beyond the entry in one chunk per set of screens, views excluded', () => {
    const group = screensGroup(
      [
        { label: 'bucket', modules: ['src/routes/bucket.tsx'] },
        { label: 'home', modules: ['src/routes/home.tsx'] },
      ],
      'src/main.tsx',
    );
    group.plugin.buildEnd.call(graph(modules));
    const chunks = Object.keys(modules)
      .filter((id) => group.test(id))
      .map((id) => [id, group.name(id)]);
    expect(Object.fromEntries(chunks)).toEqual({
      '/r/src/api/client.ts': 'screens-bucket-home',
      '/r/src/api/signing.ts': 'screens-bucket-home',
      '/r/src/list.tsx': 'screens-bucket',
      '/r/src/buckets.tsx': 'screens-home',
    });
  });

  it("leaves what only a solo screen uses (the demo backend) to its own chunk, and groups what it shares", () => {
    const withDemo = { ...modules, '/r/mocks/browser.ts': ['/r/mocks/msw.ts', '/r/src/api/signing.ts'], '/r/mocks/msw.ts': [] };
    const group = screensGroup(
      [
        { label: 'bucket', modules: ['src/routes/bucket.tsx'] },
        { label: 'demo', modules: ['mocks/browser.ts'] },
      ],
      'src/main.tsx',
      ['demo'],
    );
    group.plugin.buildEnd.call(graph(withDemo));
    expect(group.test('/r/mocks/msw.ts')).toBe(false);
    expect(group.name('/r/src/api/signing.ts')).toBe('screens-bucket-demo');
    expect(group.name('/r/src/api/client.ts')).toBe('screens-bucket');
  });

  it('fails the build when a module it names is not in the graph (a renamed entry must not silently lose its group)', () => {
    const group = entryGroup('src/renamed.tsx');
    expect(() => group.plugin.buildEnd.call(graph(modules))).toThrow(/src\/renamed\.tsx is not in the module graph/);
  });
});
