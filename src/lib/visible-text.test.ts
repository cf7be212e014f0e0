import { describe, expect, it } from 'vitest';
import { HIDDEN_NAMES, READABLE_NAMES } from '../test-data/hidden-names.ts';
import { hasHiddenCharacters, hasInvisible, revealDisguise, visibleText } from './visible-text.ts';

describe('visibleText', () => {
  it('shows every C0 control and DEL as its control picture and leaves other text alone', () => {
    expect(visibleText('a\u0007b')).toBe('a␇b');
    expect(visibleText('\tx\u0000\u001f\u007f')).toBe('␉x␀␟␡');
    expect(visibleText('plain text, 中文 ✓')).toBe('plain text, 中文 ✓');
    expect(hasInvisible('a\u0007')).toBe(true);
    expect(hasInvisible('a b')).toBe(false);
  });

  it('shows C1 controls as their code point', () => {
    expect(visibleText('a\u0085b\u009b')).toBe('a⟨U+0085⟩b⟨U+009B⟩');
  });
});

describe('bidi and zero-width characters', () => {
  it('shows bidi controls as their code point, never as the reordering they cause', () => {
    expect(visibleText('invoice\u202efdp.exe')).toBe('invoice⟨U+202E⟩fdp.exe');
    expect(visibleText('\u202a\u202b\u202c\u202d')).toBe('⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩');
    expect(visibleText('a\u2066b\u2067c\u2068d\u2069')).toBe('a⟨U+2066⟩b⟨U+2067⟩c⟨U+2068⟩d⟨U+2069⟩');
    expect(visibleText('\u200e\u200f\u061c')).toBe('⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩');
    expect(hasInvisible('x\u202ey')).toBe(true);
  });

  it('shows zero-width characters, keeping ZWJ and ZWNJ inside joining scripts and emoji sequences', () => {
    expect(visibleText('pay\u200bpal')).toBe('pay⟨U+200B⟩pal');
    expect(visibleText('\ufeffa\u2060b')).toBe('⟨U+FEFF⟩a⟨U+2060⟩b');
    expect(visibleText('\u200dstart.txt')).toBe('⟨U+200D⟩start.txt');
    expect(visibleText('end\u200c.txt')).toBe('end⟨U+200C⟩.txt');
    // Between Latin (or Cyrillic, or CJK) letters a joiner only hides a boundary.
    expect(visibleText('pay\u200dpal')).toBe('pay⟨U+200D⟩pal');
    expect(visibleText('ра\u200cура')).toBe('ра⟨U+200C⟩ура');
    expect(visibleText('中\u200d文')).toBe('中⟨U+200D⟩文');
    // A family emoji, a Persian word and a Devanagari half form keep their joiners.
    expect(visibleText('👨\u200d👩\u200d👧.txt')).toBe('👨\u200d👩\u200d👧.txt');
    expect(visibleText('می\u200cخواهم')).toBe('می\u200cخواهم');
    expect(visibleText('क्\u200dष')).toBe('क्\u200dष');
    expect(hasInvisible('👨\u200d👩')).toBe(false);
  });

  it('revealDisguise keeps line breaks and tabs for file text, and shows every other control', () => {
    expect(revealDisguise('a\tb\nc\u202ed')).toBe('a\tb\nc⟨U+202E⟩d');
    expect(revealDisguise('a\r\nb\u0007\u2028c')).toBe('a\r\nb␇⟨U+2028⟩c');
    expect(hasHiddenCharacters('line one\nline\ttwo 中文 👨\u200d👩\u200d👧')).toBe(false);
    expect(hasHiddenCharacters('folder\u202efdp.exe\n')).toBe(true);
  });
});

describe('the 21 hidden names', () => {
  it('are 21', () => {
    expect(HIDDEN_NAMES).toHaveLength(21);
  });

  it.each(HIDDEN_NAMES.map((n) => [n.what, n] as const))('%s: every hidden character is shown, none raw', (_what, { name, shown }) => {
    expect(visibleText(name)).toBe(shown);
    expect(hasInvisible(name)).toBe(true);
    expect(hasHiddenCharacters(shown)).toBe(false);
    // Idempotent: showing a shown name again changes nothing.
    expect(visibleText(shown)).toBe(shown);
  });

  it.each(READABLE_NAMES.map((name) => [JSON.stringify(name), name] as const))('ordinary name %s reads as it is', (_label, name) => {
    expect(visibleText(name)).toBe(name);
  });

  it('tag characters are shown except in the three recommended flags', () => {
    const tags = (letters: string) => [...letters].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    // A flag Unicode does not recommend is drawn as a bare black flag with its tags hidden.
    expect(visibleText(`🏴${tags('usca')}\u{e007f}`)).toBe('🏴⟨U+E0075⟩⟨U+E0073⟩⟨U+E0063⟩⟨U+E0061⟩⟨U+E007F⟩');
    expect(visibleText(`🏴${tags('gbsct')}`)).toBe('🏴⟨U+E0067⟩⟨U+E0062⟩⟨U+E0073⟩⟨U+E0063⟩⟨U+E0074⟩');
    // A long run stays linear and shown.
    const run = `🏴${tags('x'.repeat(5000))}\u{e007f}`;
    expect(visibleText(run)).toBe(`🏴${'⟨U+E0078⟩'.repeat(5000)}⟨U+E007F⟩`);
  });

  it('variation selectors stay only where they select a variant', () => {
    expect(visibleText('a\ufe0f')).toBe('a⟨U+FE0F⟩');
    expect(visibleText('1\ufe0f')).toBe('1⟨U+FE0F⟩');
    expect(visibleText('x\u{e0100}')).toBe('x⟨U+E0100⟩');
    expect(visibleText('\u1820\u180b')).toBe('\u1820\u180b');
  });
});
