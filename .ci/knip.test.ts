import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..');
const KNIP = path.join(ROOT, 'node_modules/knip/bin/knip.js');
const fixture = mkdtempSync(path.join(tmpdir(), 'knip-fixture-'));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

/** Runs knip with this repository's choices on a small tree; its report and whether it passed. */
function knip(files: Record<string, string>): { passed: boolean; report: string } {
  // The repository's own knip.jsonc, less its entries (the fixture names its own).
  const config = JSON.parse(readFileSync(path.join(ROOT, 'knip.jsonc'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as Record<string, unknown>;
  writeFileSync(path.join(fixture, 'knip.json'), JSON.stringify({ ...config, entry: ['src/main.ts'], project: ['src/**/*.ts'], ignoreIssues: {} }));
  writeFileSync(path.join(fixture, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module' }));
  mkdirSync(path.join(fixture, 'src'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(fixture, name), text);
  try {
    return { passed: true, report: execFileSync(process.execPath, [KNIP, '--no-progress', '--no-config-hints'], { cwd: fixture, encoding: 'utf8' }) };
  } catch (error) {
    return { passed: false, report: String((error as { stdout?: unknown }).stdout ?? error) };
  }
}

describe('dead code (knip in npm run lint)', () => {
  it('fails on an export or a type nothing imports; an export its own file uses is not dead', () => {
    const main = "import { used, type Used } from './lib.ts';\nconst u: Used = used;\nconsole.log(u);\n";
    const lib = 'export const used = 1;\nexport type Used = number;\nexport const local = 2;\nconsole.log(local);\n';
    expect(knip({ 'src/main.ts': main, 'src/lib.ts': lib })).toEqual({ passed: true, report: '' });
    const planted = knip({ 'src/main.ts': main, 'src/lib.ts': `${lib}export function isDead(): boolean {\n  return true;\n}\nexport type Dead = string;\n` });
    expect(planted.passed).toBe(false);
    expect(planted.report).toMatch(/Unused exports \(1\)\s+isDead\s+function\s+src\/lib\.ts:5/);
    expect(planted.report).toMatch(/Unused exported types \(1\)\s+Dead\s+type\s+src\/lib\.ts:8/);
  });
});
