import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../mocks/errors.ts';
import { STATUS_CODES } from '../api/errors.ts';
import { allEnglish as en } from './all-english.ts';
import { zhCN } from './zh-cn.ts';

/**
 * Every error code a user can meet gets plain words in both catalogs: the codes the emulator answers
 * with (its whole catalog, which is also the set of documented codes it reproduces) and the codes the
 * api layer derives from a bare HTTP status. The error notice looks a code up as `qs.<code>`; a code
 * without an entry is shown as "unknown code", which is wrong for a code the project itself produces.
 */

/** The codes in `codes` that `catalog` has no `qs.<code>` message for. */
function codesWithoutMessage(codes: readonly string[], catalog: Readonly<Record<string, string>>): string[] {
  return codes.filter((code) => {
    const message = catalog[`qs.${code}`];
    return message === undefined || message.trim() === '';
  });
}

const emulatorCodes = Object.keys(ERROR_CATALOG);
const statusCodes = Object.values(STATUS_CODES);

describe('error code messages', () => {
  it('the emulator defines the codes this test walks', () => {
    expect(emulatorCodes).toContain('entity_too_small');
    expect(emulatorCodes.length).toBeGreaterThanOrEqual(30);
  });

  it('every emulator error code has an English and a Simplified Chinese message', () => {
    expect({ en: codesWithoutMessage(emulatorCodes, en) }).toEqual({ en: [] });
    expect({ zhCN: codesWithoutMessage(emulatorCodes, zhCN) }).toEqual({ zhCN: [] });
  });

  it('every code derived from a bare HTTP status has both messages', () => {
    expect({ en: codesWithoutMessage(statusCodes, en) }).toEqual({ en: [] });
    expect({ zhCN: codesWithoutMessage(statusCodes, zhCN) }).toEqual({ zhCN: [] });
  });

  it('reports a code that has no message (the check can fail)', () => {
    expect(codesWithoutMessage(['entity_too_small', 'no_such_code_anywhere'], { 'qs.entity_too_small': 'x' })).toEqual([
      'no_such_code_anywhere',
    ]);
    expect(codesWithoutMessage(['blank'], { 'qs.blank': '  ' })).toEqual(['blank']);
  });
});
