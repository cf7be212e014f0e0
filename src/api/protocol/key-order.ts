/**
 * The order of object keys in every listing (ref §9.5): by Unicode code point, which equals UTF-8 byte
 * order. JS `<` compares UTF-16 code units, which puts astral characters (surrogate pairs, D800–DFFF)
 * BEFORE U+E000..U+FFFF; byte order puts them after. Only that case needs fixing, so the loop compares
 * code units and remaps the two ranges when the first difference involves them.
 */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // surrogates move above U+FFFF's neighbourhood; E000..FFFF move down into the gap
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
