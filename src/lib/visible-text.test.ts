import { describe, expect, it } from 'vitest';
import { hasInvisible, visibleText } from './visible-text.ts';

describe('visibleText', () => {
  it('shows every C0 control and DEL as its control picture and leaves other text alone', () => {
    expect(visibleText('a\u0007b')).toBe('a␇b');
    expect(visibleText('\tx\u0000\u001f\u007f')).toBe('␉x␀␟␡');
    expect(visibleText('plain text, 中文 ✓')).toBe('plain text, 中文 ✓');
    expect(hasInvisible('a\u0007')).toBe(true);
    expect(hasInvisible('a b')).toBe(false);
  });
});
