import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSizes, lineCount, MAX_LINES, readSizes } from './file-size.ts';

const lines = (n: number) => 'x\n'.repeat(n);
const problems = (files: Record<string, number>, splitting: Record<string, number> = {}, exempt: Record<string, string> = {}) =>
  checkSizes(new Map(Object.entries(files)), new Map(Object.entries(splitting)), new Map(Object.entries(exempt))).map((p) => `${p.file}: ${p.problem}`);

const fixture = mkdtempSync(path.join(tmpdir(), 'file-size-'));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

describe('no source file over 400 lines', () => {
  it('fails on a planted file one line over, wherever it is under the checked roots', () => {
    for (const dir of ['src/features/x', 'mocks/store', 'e2e/fixtures', 'bench', '.ci']) mkdirSync(path.join(fixture, dir), { recursive: true });
    writeFileSync(path.join(fixture, 'src/features/x/big.tsx'), lines(MAX_LINES + 1));
    writeFileSync(path.join(fixture, 'mocks/store/ok.ts'), lines(MAX_LINES));
    writeFileSync(path.join(fixture, 'bench/big.ts'), lines(MAX_LINES + 50));
    writeFileSync(path.join(fixture, 'src/features/x/big.test.ts'), lines(900));
    writeFileSync(path.join(fixture, 'e2e/fixtures/long.spec.ts'), lines(900));
    const found = checkSizes(readSizes(fixture), new Map(), new Map()).map((p) => p.file);
    expect(found).toEqual(['bench/big.ts', 'src/features/x/big.tsx']);
  });

  it('counts lines as wc -l does, an unterminated last line included', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount(lines(401))]).toEqual([0, 1, 1, 2, 401]);
  });

  it('takes source of every kind, not tests, pictures or READMEs', () => {
    const over = MAX_LINES + 1;
    expect(problems({ 'src/a.css': over, 'mocks/b.json': over, 'src/c.test.tsx': over, 'e2e/d.spec.ts': over, 'e2e/e.shots.ts': over, 'src/api/README.md': over, 'e2e/x.png': over })).toEqual([
      `mocks/b.json: ${over} lines, more than 400: split it along a seam (a model and small views, one dialog per file)`,
      `src/a.css: ${over} lines, more than 400: split it along a seam (a model and small views, one dialog per file)`,
    ]);
  });

  it('lets a catalogue or a generated file be long, by name only', () => {
    expect(problems({ 'src/i18n/zh-cn.ts': 1062, 'src/i18n/fr.ts': 1062 }, {}, { 'src/i18n/zh-cn.ts': 'catalogue' })).toEqual([
      'src/i18n/fr.ts: 1062 lines, more than 400: split it along a seam (a model and small views, one dialog per file)',
    ]);
  });

  it('holds a file being split to its ceiling, and asks for its entry to go once it is small or gone', () => {
    expect(problems({ 'src/a.tsx': 536 }, { 'src/a.tsx': 536 })).toEqual([]);
    expect(problems({ 'src/a.tsx': 520 }, { 'src/a.tsx': 536 })).toEqual([]);
    expect(problems({ 'src/a.tsx': 537 }, { 'src/a.tsx': 536 })).toEqual(['src/a.tsx: 537 lines, more than its ceiling of 536 while it is being split: it may shrink, not grow']);
    expect(problems({ 'src/a.tsx': 47 }, { 'src/a.tsx': 536 })).toEqual(['src/a.tsx: 47 lines, within 400 now: remove it from SPLITTING in .ci/file-size.ts']);
    expect(problems({}, { 'src/a.tsx': 536 }, { 'src/gone.json': 'generated' })).toEqual([
      'src/a.tsx: listed in .ci/file-size.ts but not in the tree: remove its entry',
      'src/gone.json: listed in .ci/file-size.ts but not in the tree: remove its entry',
    ]);
  });

  it('passes on this repository', () => {
    expect(checkSizes(readSizes(path.join(import.meta.dirname, '..')))).toEqual([]);
  });
});
