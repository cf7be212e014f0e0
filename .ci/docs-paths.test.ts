import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkComments, checkDocs, checkReadme, isRepoPath, type TreeIndex } from './docs-paths.ts';
import { parseSource } from './source-graph.ts';

const tree: TreeIndex = {
  files: new Set(['README.md', 'package.json', 'src/api/README.md', 'src/api/client.ts', 'src/api/cors/rule.ts', 'src/features/upload-queue/ui/upload-host.ts', 'bench/browse.ts', 'e2e/screenshots/a.png', 'src/serve/boot-preload.test.ts']),
  dirs: new Set(['src', 'src/api', 'src/api/cors', 'src/features', 'src/features/upload-queue', 'src/features/upload-queue/ui', 'bench', 'e2e', 'e2e/screenshots', 'src/serve']),
};
const scripts = new Set(['lint', 'bench:browse']);
const packages = new Set(['msw', '@radix-ui/react-context-menu']);
const problems = (readme: string, markdown: string) => checkReadme(readme, markdown, tree, scripts, packages).map((p) => `${p.line}: ${p.problem}`);

describe('docs that stay true', () => {
  it('takes for a repo path what names a file or folder, and nothing else', () => {
    for (const span of ['src/api/cors/rule.ts', 'ui/', 'client.ts', '.ci/boundaries.ts', './x.ts', 'e2e/screenshots/a.png']) expect([span, isRepoPath(span, packages)]).toEqual([span, true]);
    const notPaths = [
      'https://qingstor.com', '/uploads', '/buckets/<zone>/<bucket>/settings', 'src/api/<area>/queries.ts', 'x-qs-meta-*', '*/schemas.ts',
      'text/csv', 'application/octet-stream', 'DIR/records.sqlite', 'W/', '@radix-ui/react-context-menu', 'msw/browser', 'dist/', 'node_modules/.bin',
      'qingstor.local', 'a/b', 'npm run lint', 'invoice⟨U+202E⟩fdp.exe', 'GET /<bucket>?acl', '.br',
    ];
    for (const span of notPaths) expect([span, isRepoPath(span, packages)]).toEqual([span, false]);
  });

  it('finds a path from its README, from the root, or as the end of a path of the tree; a renamed file is caught', () => {
    const readme = [
      'The rule is built in `src/components/cors-rule.ts`.', // moved to src/api/cors/rule.ts
      'Open `client.ts`, then `cors/rule.ts`.', // beside src/api/README.md
      'The host: `ui/upload-host.ts`; the root: `bench/browse.ts`, `src/serve/`.',
      '```sh',
      'ls src/nothing/here.ts',
      '```',
    ].join('\n');
    expect(problems('src/api/README.md', readme)).toEqual(['1: `src/components/cors-rule.ts` is no file or folder of the repository']);
  });

  it('checks relative links and images, from the README that holds them', () => {
    const readme = '[api](src/api/README.md) ![](e2e/screenshots/a.png) [web](https://qingstor.com) [top](#top)\n![](e2e/screenshots/gone.png) [up](../README.md)';
    expect(problems('README.md', readme)).toEqual(['2: link to e2e/screenshots/gone.png, which does not resolve from README.md', '2: link to ../README.md, which does not resolve from README.md']);
    expect(problems('src/api/README.md', '[root](../../README.md)')).toEqual([]);
  });

  it('checks that commands run as written: npm scripts exist, no TypeScript through a bare node', () => {
    const readme = [
      'Run `npm run lint`, then `npm run bench:browse -- --ab a b`.',
      'Then `npm run bench:nothing`.',
      '| `node bench/browse.ts --ab <distA> <distB>` | compares |',
      '```sh',
      'node bench/browse.ts 3 && npm run lint',
      '```',
      'Screenshots: `npm run shots:manage --',
      '<console URL>` writes them.',
    ].join('\n');
    expect(problems('README.md', readme)).toEqual([
      '2: `npm run bench:nothing`: package.json has no such script',
      '3: `node bench/browse.ts` runs on the system\'s Node: give it an npm script (package.json runs scripts on the Node it installs)',
      '5: `node bench/browse.ts` runs on the system\'s Node: give it an npm script (package.json runs scripts on the Node it installs)',
      '7: `npm run shots:manage`: package.json has no such script',
    ]);
  });

  it("checks the paths and test files named in the code's comments, not in its strings", () => {
    const source = [
      '/**',
      ' * The table the build reads; route-views.test.ts checks it (the test is src/serve/boot-preload.test.ts).',
      ' * The rule: src/api/cors/rule.ts, once src/components/cors-rule.ts.',
      ' */',
      "const fixture = 'src/features/gone.ts and gone.test.ts';",
    ].join('\n');
    const found = checkComments(parseSource('src/app/route-views.ts', source), tree, new Set([...tree.files].map((f) => path.posix.basename(f))));
    expect(found.map((p) => `${p.line}: ${p.problem}`)).toEqual(['2: the comment names the test route-views.test.ts, which is not in the tree', '3: the comment names src/components/cors-rule.ts, which is not in the tree']);
  });

  it('the repository itself is clean', () => {
    expect(checkDocs(path.join(import.meta.dirname, '..'))).toEqual([]);
  });
});
