import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogKeys, checkTree, keyUsage, unusedKeys } from './catalog-keys.ts';

const unused = (keys: string[], code: string) => unusedKeys(keys, keyUsage(code));

const fixture = mkdtempSync(path.join(tmpdir(), 'catalog-keys-'));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

function plant(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(fixture, 'tree-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('every catalog key is named by the code', () => {
  it('reads the keys of a catalog, one entry a line', () => {
    expect(catalogKeys("export const en = {\n  'a.b': 'A',\n  'a.c-d': 'C {n}',\n\n  // a comment: 'x.y'\n};\n")).toEqual(['a.b', 'a.c-d']);
  });

  it('counts a key named as a string, in either quotes', () => {
    expect(unused(['a.one', 'a.two', 'a.three'], "t('a.one'); const k = \"a.two\";")).toEqual(['a.three']);
  });

  it('counts the plural forms of a base that tp() is given', () => {
    expect(unused(['n.files.one', 'n.files.other', 'n.dirs.one'], "tp('n.files', count)")).toEqual(['n.dirs.one']);
  });

  it('counts every key under the fixed head of a template the code builds a key from', () => {
    expect(unused(['st.done', 'st.failed', 'other.done'], 't(`st.${state}`)')).toEqual(['other.done']);
    // A template without a key-like head names nothing (its head is not a key's start).
    expect(unused(['st.done'], 'const url = `${base}/st.done`;')).toEqual(['st.done']);
  });

  it('does not take a longer or shorter key for the one named', () => {
    expect(unused(['a.b', 'a.bc', 'a'], "t('a.bc')")).toEqual(['a', 'a.b']);
  });

  it('fails on a planted unused key; names in tests and in the catalogs do not count', () => {
    const root = plant({
      'src/i18n/en.ts': "export const en = {\n  'app.title': 'Console',\n  'app.gone': 'Old screen',\n};\n",
      'src/i18n/parts/jobs.ts': "export const jobs = {\n  'jobs.state.done': 'Done',\n  'jobs.onlyTested': 'T',\n};\n",
      'src/i18n/zh-cn.ts': "export const zhCN = {\n  'app.title': '控制台',\n  'app.gone': '旧',\n  'jobs.state.done': '完成',\n  'jobs.onlyTested': 'T',\n};\n",
      'src/app/shell.tsx': "export const Title = () => t('app.title');\n",
      'src/features/jobs/view.tsx': 'export const state = (s: string) => t(`jobs.state.${s}`);\n',
      'src/features/jobs/view.test.tsx': "expect(t('jobs.onlyTested')).toBe('T');\n",
    });
    expect(checkTree(root)).toEqual(['app.gone', 'jobs.onlyTested']);
  });

  it('the tree itself is clean', () => {
    expect(checkTree(path.join(import.meta.dirname, '..'))).toEqual([]);
  });
});
