/**
 * JSON pretty-printing with a bound on what it produces. `JSON.stringify(value, null, 2)` indents every
 * level one step further, so its output grows with the square of the nesting: 30 KB of `{"a":` nested 5,000
 * deep becomes ~50 MB of spaces, and 66 KB of `[`×3000 around 30,000 zeros about 180 MB, enough to freeze
 * or crash the tab. Here levels deeper than `maxIndentDepth` are written on one line (compact, as stored),
 * so the output is at most the compact text plus `2 × maxIndentDepth` characters per line of the indented
 * levels, and the writer gives up (returns null) as soon as the output would pass `maxChars`. It walks the
 * value with a stack of its own, so no depth can overflow the call stack.
 */

export interface JsonFormatLimits {
  /** Levels up to this depth get a line and an indentation of their own; deeper ones stay on one line. */
  maxIndentDepth: number;
  /** Longest output, in UTF-16 code units; beyond it formatting stops. */
  maxChars: number;
}

export const JSON_FORMAT_LIMITS: JsonFormatLimits = { maxIndentDepth: 20, maxChars: 512 * 1024 };

export interface FormattedJson {
  text: string;
  /** Some level was deeper than maxIndentDepth and was written on one line. */
  flattened: boolean;
}

type Frame =
  | { kind: 'array'; items: readonly unknown[]; next: number; depth: number }
  | { kind: 'object'; entries: ReadonlyArray<readonly [string, unknown]>; next: number; depth: number };

/** `value` (as JSON.parse returns it) as indented JSON text, or null when that would pass `limits.maxChars`. */
export function formatJson(value: unknown, limits: JsonFormatLimits = JSON_FORMAT_LIMITS): FormattedJson | null {
  const parts: string[] = [];
  let length = 0;
  let flattened = false;
  const indents: string[] = [];
  const indent = (depth: number): string => (indents[depth] ??= `\n${'  '.repeat(depth)}`);
  const write = (text: string): boolean => {
    length += text.length;
    if (length > limits.maxChars) return false;
    parts.push(text);
    return true;
  };
  const stack: Frame[] = [];
  /** Writes a scalar or opens a container at `depth`; false when the output is too long. */
  const open = (item: unknown, depth: number): boolean => {
    if (Array.isArray(item)) {
      if (item.length === 0) return write('[]');
      stack.push({ kind: 'array', items: item, next: 0, depth });
      return write('[');
    }
    if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      if (entries.length === 0) return write('{}');
      stack.push({ kind: 'object', entries, next: 0, depth });
      return write('{');
    }
    return write(JSON.stringify(item) ?? 'null');
  };

  if (!open(value, 0)) return null;
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    const pretty = frame.depth < limits.maxIndentDepth;
    const count = frame.kind === 'array' ? frame.items.length : frame.entries.length;
    if (frame.next === count) {
      stack.pop();
      if (!write(`${pretty ? indent(frame.depth) : ''}${frame.kind === 'array' ? ']' : '}'}`)) return null;
      continue;
    }
    const index = frame.next;
    frame.next += 1;
    if (!pretty) flattened = true;
    let lead = index > 0 ? ',' : '';
    if (pretty) lead += indent(frame.depth + 1);
    let item: unknown;
    if (frame.kind === 'object') {
      const [key, entryValue] = frame.entries[index] ?? ['', null];
      lead += `${JSON.stringify(key)}${pretty ? ': ' : ':'}`;
      item = entryValue;
    } else {
      item = frame.items[index];
    }
    if (!write(lead) || !open(item, frame.depth + 1)) return null;
  }
  return { text: parts.join(''), flattened };
}
