/**
 * Text with its invisible characters made visible, for showing stored values: C0 controls become their
 * Unicode "control picture" (BEL → ␇, TAB → ␉, NUL → ␀), DEL becomes ␡. A value with a control
 * character is never shown as nothing or as plain whitespace. Display only: never send the result.
 */
export function visibleText(value: string): string {
  // oxlint-disable-next-line no-control-regex -- matching control characters is the point
  return value.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\u007f' ? '\u2421' : String.fromCharCode(0x2400 + c.charCodeAt(0))));
}

/** True when `value` holds a character visibleText would replace. */
export function hasInvisible(value: string): boolean {
  // oxlint-disable-next-line no-control-regex -- matching control characters is the point
  return /[\u0000-\u001f\u007f]/.test(value);
}
