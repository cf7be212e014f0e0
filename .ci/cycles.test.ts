import { describe, expect, it } from 'vitest';
import { checkSources } from './boundaries.ts';
import { findCycles } from './cycles.ts';
import { parseSource } from './source-graph.ts';

const tree = (files: Record<string, string>) => Object.entries(files).map(([file, source]) => parseSource(file, source));

describe('import cycles', () => {
  it('finds a cycle of type-only imports, named file by file from where it starts', () => {
    const cycles = findCycles(
      tree({
        'mocks/handlers/context.ts': "import type { PostFormReader } from './post-object.ts';\nexport interface Ctx { read: PostFormReader }",
        'mocks/handlers/post-object.ts': "import type { Ctx } from './context.ts';\nexport type PostFormReader = (c: Ctx) => void;",
      }),
    );
    expect(cycles).toEqual([{ files: ['mocks/handlers/context.ts', 'mocks/handlers/post-object.ts'], line: 1, text: "import type { PostFormReader } from './post-object.ts';" }]);
  });

  it('finds a longer cycle through a re-export and a dynamic import, and a module importing itself', () => {
    const cycles = findCycles(
      tree({
        'src/i18n/en.ts': "import type { adminEn } from './parts/admin.ts';\nexport const en = {};",
        'src/i18n/parts/admin.ts': "export { registerEnglish } from '../registry.ts';",
        'src/i18n/registry.ts': "const en = () => import('./en.ts');",
        'src/lib/self.ts': "import { x } from './self.ts';\nexport const y = x;",
      }),
    );
    expect(cycles.map((c) => c.files)).toEqual([['src/i18n/en.ts', 'src/i18n/parts/admin.ts', 'src/i18n/registry.ts'], ['src/lib/self.ts']]);
  });

  it('gives the shortest cycle of a tangle once, and nothing for shared imports without a way back', () => {
    const tangle = findCycles(tree({ 'a.ts': "import './b.ts';\nimport './c.ts';", 'b.ts': "import './a.ts';", 'c.ts': "import './b.ts';" }));
    expect(tangle.map((c) => c.files)).toEqual([['a.ts', 'b.ts']]);
    const diamond = findCycles(tree({ 'a.ts': "import './b.ts';\nimport './c.ts';", 'b.ts': "import './d.ts';", 'c.ts': "import './d.ts';", 'd.ts': 'export {};' }));
    expect(diamond).toEqual([]);
  });

  it('is reported by the boundary check', () => {
    const found = checkSources(tree({ 'src/lib/a.ts': "import type { B } from './b.ts';\nexport type A = B;", 'src/lib/b.ts': "import type { A } from './a.ts';\nexport type B = A;" }));
    expect(found).toEqual([expect.objectContaining({ file: 'src/lib/a.ts', line: 1, rule: expect.stringMatching(/^import cycle: src\/lib\/a\.ts → src\/lib\/b\.ts → src\/lib\/a\.ts/) })]);
  });
});
