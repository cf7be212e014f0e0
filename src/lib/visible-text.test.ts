import { describe, expect, it } from 'vitest';
import { hasInvisible, revealDisguise, visibleText } from './visible-text.ts';

describe('visibleText', () => {
  it('shows every C0 control and DEL as its control picture and leaves other text alone', () => {
    expect(visibleText('a\u0007b')).toBe('a␇b');
    expect(visibleText('\tx\u0000\u001f\u007f')).toBe('␉x␀␟␡');
    expect(visibleText('plain text, 中文 ✓')).toBe('plain text, 中文 ✓');
    expect(hasInvisible('a\u0007')).toBe(true);
    expect(hasInvisible('a b')).toBe(false);
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

  it('shows zero-width characters, keeping ZWJ and ZWNJ inside words and emoji sequences', () => {
    expect(visibleText('pay\u200bpal')).toBe('pay⟨U+200B⟩pal');
    expect(visibleText('\ufeffa\u2060b')).toBe('⟨U+FEFF⟩a⟨U+2060⟩b');
    expect(visibleText('\u200dstart.txt')).toBe('⟨U+200D⟩start.txt');
    expect(visibleText('end\u200c.txt')).toBe('end⟨U+200C⟩.txt');
    // A family emoji and a Persian word keep their joiners.
    expect(visibleText('👨\u200d👩\u200d👧.txt')).toBe('👨\u200d👩\u200d👧.txt');
    expect(visibleText('می\u200cخواهم')).toBe('می\u200cخواهم');
    expect(hasInvisible('👨\u200d👩')).toBe(false);
  });

  it('revealDisguise keeps line breaks and tabs for file text', () => {
    expect(revealDisguise('a\tb\nc\u202ed')).toBe('a\tb\nc⟨U+202E⟩d');
  });
});
