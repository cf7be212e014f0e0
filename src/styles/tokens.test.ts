import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The colour tokens of base.css, checked against WCAG 2.2: text 4.5:1 (AA, 1.4.3), borders, focus rings and
// other non-text marks 3:1 (1.4.11), in the light and the dark set.
const css = readFileSync(new URL('./base.css', import.meta.url), 'utf8');

function token(scheme: 'light' | 'dark', name: string): string {
  const match = new RegExp(`--${scheme}-${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(css);
  if (!match?.[1]) throw new Error(`no --${scheme}-${name} in base.css`);
  return match[1];
}

function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** [foreground, background]: every pair of tokens some component puts text on. */
const TEXT_PAIRS: ReadonlyArray<[string, string]> = [
  ['fg', 'bg'], ['fg', 'bg-soft'], ['fg', 'bg-hover'], ['fg', 'bg-selected'],
  ['fg-muted', 'bg'], ['fg-muted', 'bg-soft'], ['fg-muted', 'bg-hover'],
  ['accent', 'bg'], ['accent', 'bg-soft'], ['accent-fg', 'accent'],
  ['accent-soft-fg', 'accent-soft'],
  ['danger', 'bg'], ['danger', 'danger-bg'], ['danger-fg', 'danger'], ['fg', 'danger-bg'],
  ['warn-fg', 'warn-bg'], ['ok', 'bg'], ['ok', 'ok-bg'], ['fg', 'ok-bg'], ['fg', 'warn-bg'],
];
/** Marks that are not text: the focus ring, strong borders (inputs, checkboxes), the progress fill. */
const MARK_PAIRS: ReadonlyArray<[string, string]> = [
  ['focus', 'bg'], ['focus', 'bg-soft'], ['border-strong', 'bg'], ['border-strong', 'bg-soft'], ['accent', 'bg-soft'],
];

describe('design tokens', () => {
  it('contrast() matches known WCAG ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it.each(TEXT_PAIRS)(`${scheme}: text %s on %s is at least 4.5:1`, (fg, bg) => {
      expect(contrast(token(scheme, fg), token(scheme, bg))).toBeGreaterThanOrEqual(4.5);
    });
    it.each(MARK_PAIRS)(`${scheme}: mark %s on %s is at least 3:1`, (fg, bg) => {
      expect(contrast(token(scheme, fg), token(scheme, bg))).toBeGreaterThanOrEqual(3);
    });
  }
});
