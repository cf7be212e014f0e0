/**
 * Small, real media files for the demo seed (seed.ts), made in code so the seed stays deterministic and no
 * binary file is kept in the repository: every demo image, PDF and sound previews as its type says.
 *
 *   png   truecolour, zlib "stored" blocks (no compression needed to be valid), CRC-32 and Adler-32
 *   gif   GIF89a, 8-bit LZW codes with a clear code often enough that the code size never grows
 *   jpeg  baseline JFIF, one flat colour per 8×8 block (only DC coefficients, every AC run is an end-of-block)
 *   webp  lossless (VP8L) with "simple" prefix codes: two values per colour channel, eight colours in all
 *   svg   text; pdf: one page of text with a computed cross-reference table; wav: 8-bit PCM
 * Each picture is drawn by a function of (x, y) → [r, g, b], so the images show something (a gradient scene,
 * stripes) rather than noise.
 */

export type Rgb = readonly [number, number, number];
export type Paint = (x: number, y: number) => Rgb;

const encoder = new TextEncoder();

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.byteLength;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

const u32be = (n: number): Uint8Array => new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const u32le = (n: number): Uint8Array => new Uint8Array([n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255]);
const u16le = (n: number): Uint8Array => new Uint8Array([n & 255, (n >>> 8) & 255]);
const u16be = (n: number): Uint8Array => new Uint8Array([(n >>> 8) & 255, n & 255]);

let crcTable: Uint32Array | undefined;
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of bytes) c = (crcTable[(c ^ b) & 255] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A PNG of `width`×`height` painted by `paint`. */
export function png(width: number, height: number, paint: Paint): Uint8Array {
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0, at = 0; y < height; y += 1) {
    raw[at++] = 0; // filter: none
    for (let x = 0; x < width; x += 1) for (const v of paint(x, y)) raw[at++] = v;
  }
  // zlib: header, stored blocks of at most 65,535 bytes, Adler-32 of the data.
  const blocks: Uint8Array[] = [new Uint8Array([0x78, 0x01])];
  for (let at = 0; at < raw.length || at === 0; at += 65535) {
    const piece = raw.subarray(at, Math.min(raw.length, at + 65535));
    const last = at + 65535 >= raw.length ? 1 : 0;
    blocks.push(new Uint8Array([last, piece.length & 255, piece.length >>> 8, ~piece.length & 255, (~piece.length >>> 8) & 255]), piece);
    if (last) break;
  }
  let a = 1;
  let b = 0;
  for (const v of raw) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  blocks.push(u32be(((b << 16) | a) >>> 0));
  const chunk = (type: string, data: Uint8Array): Uint8Array => {
    const body = concat([encoder.encode(type), data]);
    return concat([u32be(data.byteLength), body, u32be(crc32(body))]);
  };
  const header = concat([u32be(width), u32be(height), new Uint8Array([8, 2, 0, 0, 0])]);
  return concat([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', concat(blocks)), chunk('IEND', new Uint8Array(0))]);
}

/** A GIF of `width`×`height` with `palette` (up to 256 colours), pixel (x, y) → palette index. */
export function gif(width: number, height: number, palette: readonly Rgb[], index: (x: number, y: number) => number): Uint8Array {
  const table = new Uint8Array(256 * 3);
  palette.forEach((c, i) => table.set(c, i * 3));
  // 8-bit codes: 256 literals, 256 = clear, 257 = end; 9-bit codes throughout, a clear every 250 literals
  // (before the table would need 10 bits), so no string is ever matched: valid LZW without a dictionary.
  const codes: number[] = [256];
  let sinceClear = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      codes.push(index(x, y) & 255);
      if (++sinceClear === 250) {
        codes.push(256);
        sinceClear = 0;
      }
    }
  }
  codes.push(257);
  const packed: number[] = [];
  let bits = 0;
  let nbits = 0;
  for (const code of codes) {
    bits |= code << nbits;
    nbits += 9;
    while (nbits >= 8) {
      packed.push(bits & 255);
      bits >>>= 8;
      nbits -= 8;
    }
  }
  if (nbits > 0) packed.push(bits & 255);
  const sub: Uint8Array[] = [];
  for (let at = 0; at < packed.length; at += 255) {
    const piece = packed.slice(at, at + 255);
    sub.push(new Uint8Array([piece.length, ...piece]));
  }
  return concat([
    encoder.encode('GIF89a'),
    u16le(width),
    u16le(height),
    new Uint8Array([0xf7, 0, 0]), // global colour table of 256 entries
    table,
    new Uint8Array([0x2c]),
    u16le(0),
    u16le(0),
    u16le(width),
    u16le(height),
    new Uint8Array([0, 8]), // no local table; LZW minimum code size 8
    ...sub,
    new Uint8Array([0, 0x3b]),
  ]);
}

/** Writes bits most significant first (JPEG). */
class MsbBits {
  private readonly out: number[] = [];
  private acc = 0;
  private count = 0;
  put(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i -= 1) {
      this.acc = (this.acc << 1) | ((value >>> i) & 1);
      if (++this.count === 8) {
        this.out.push(this.acc);
        if (this.acc === 0xff) this.out.push(0); // byte stuffing
        this.acc = 0;
        this.count = 0;
      }
    }
  }
  bytes(): Uint8Array {
    if (this.count > 0) this.put((1 << (8 - this.count)) - 1, 8 - this.count); // pad with ones
    return new Uint8Array(this.out);
  }
}

/** Standard DC table (ITU T.81 K.3, luminance): code lengths per length 1..16, then the categories 0..11. */
const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];

/** A baseline JPEG of `width`×`height` (multiples of 8), each 8×8 block one flat colour (the block's centre). */
export function jpeg(width: number, height: number, paint: Paint): Uint8Array {
  // Canonical codes of the DC table.
  const dcCode: Array<{ code: number; length: number }> = [];
  for (let length = 1, code = 0, symbol = 0; length <= 16; length += 1, code <<= 1) {
    for (let i = 0; i < (DC_BITS[length - 1] ?? 0); i += 1) dcCode[symbol++] = { code: code++, length };
  }
  const bits = new MsbBits();
  const previous = [0, 0, 0];
  for (let by = 0; by < height / 8; by += 1) {
    for (let bx = 0; bx < width / 8; bx += 1) {
      const [r, g, b] = paint(bx * 8 + 4, by * 8 + 4);
      const ycc = [0.299 * r + 0.587 * g + 0.114 * b, 128 - 0.168736 * r - 0.331264 * g + 0.5 * b, 128 + 0.5 * r - 0.418688 * g - 0.081312 * b];
      ycc.forEach((value, c) => {
        // A flat block's DC coefficient is 8·(v − 128); the quantiser of DC is 8, so the stored DC is v − 128.
        const dc = Math.round(Math.max(0, Math.min(255, value))) - 128;
        const diff = dc - (previous[c] ?? 0);
        previous[c] = dc;
        const magnitude = Math.abs(diff);
        const category = magnitude === 0 ? 0 : Math.floor(Math.log2(magnitude)) + 1;
        const entry = dcCode[category];
        if (!entry) throw new Error('jpeg: DC category out of range');
        bits.put(entry.code, entry.length);
        if (category > 0) bits.put(diff >= 0 ? diff : diff + (1 << category) - 1, category);
        bits.put(0, 1); // AC: end of block (the one code of the AC table)
      });
    }
  }
  const segment = (marker: number, data: Uint8Array): Uint8Array => concat([new Uint8Array([0xff, marker]), u16be(data.byteLength + 2), data]);
  const quant = new Uint8Array(65).fill(1);
  quant[0] = 0;
  quant[1] = 8;
  const dht = concat([new Uint8Array([0x00, ...DC_BITS, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), new Uint8Array([0x10, 1, ...new Array<number>(15).fill(0), 0x00])]);
  const sof = new Uint8Array([8, ...u16be(height), ...u16be(width), 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]);
  const sos = new Uint8Array([3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]);
  return concat([
    new Uint8Array([0xff, 0xd8]),
    segment(0xe0, new Uint8Array([...encoder.encode('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0])),
    segment(0xdb, quant),
    segment(0xc0, sof),
    segment(0xc4, dht),
    segment(0xda, sos),
    bits.bytes(),
    new Uint8Array([0xff, 0xd9]),
  ]);
}

/** Writes bits least significant first (VP8L). */
class LsbBits {
  private readonly out: number[] = [];
  private acc = 0;
  private count = 0;
  put(value: number, length: number): void {
    for (let i = 0; i < length; i += 1) {
      this.acc |= ((value >>> i) & 1) << this.count;
      if (++this.count === 8) {
        this.out.push(this.acc);
        this.acc = 0;
        this.count = 0;
      }
    }
  }
  bytes(): Uint8Array {
    if (this.count > 0) this.out.push(this.acc);
    return new Uint8Array(this.out);
  }
}

/**
 * A lossless WebP of `width`×`height`. Each channel takes one of two values (`low`/`high` per channel), so
 * the picture has at most eight colours; `pick(x, y)` says for each channel whether it is high.
 */
export function webp(width: number, height: number, low: Rgb, high: Rgb, pick: (x: number, y: number) => readonly [boolean, boolean, boolean]): Uint8Array {
  const bits = new LsbBits();
  bits.put(0x2f, 8);
  bits.put(width - 1, 14);
  bits.put(height - 1, 14);
  bits.put(0, 1); // no alpha in use
  bits.put(0, 3); // version 0
  bits.put(0, 1); // no transform
  bits.put(0, 1); // no colour cache
  bits.put(0, 1); // no meta prefix codes
  // Five simple prefix codes: green, red, blue (two 8-bit symbols each), alpha (255), distance (0).
  const two = (a: number, b: number): void => {
    bits.put(1, 1); // simple
    bits.put(1, 1); // two symbols
    bits.put(1, 1); // the first is 8 bits long
    bits.put(a, 8);
    bits.put(b, 8);
  };
  const one = (symbol: number): void => {
    bits.put(1, 1);
    bits.put(0, 1);
    bits.put(symbol > 1 ? 1 : 0, 1);
    bits.put(symbol, symbol > 1 ? 8 : 1);
  };
  const channels = [1, 0, 2] as const; // green, red, blue
  const lo = channels.map((c) => Math.min(low[c], high[c]));
  const hi = channels.map((c) => Math.max(low[c], high[c]) === Math.min(low[c], high[c]) ? Math.min(255, Math.max(low[c], high[c]) + 1) : Math.max(low[c], high[c]));
  for (let i = 0; i < 3; i += 1) two(lo[i] ?? 0, hi[i] ?? 1);
  one(255);
  one(0);
  // Two symbols of one bit each: the smaller value is code 0, the larger code 1.
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const [r, g, b] = pick(x, y);
      const want = [g ? high[1] : low[1], r ? high[0] : low[0], b ? high[2] : low[2]];
      for (let i = 0; i < 3; i += 1) bits.put(want[i] === hi[i] ? 1 : 0, 1);
    }
  }
  const data = bits.bytes();
  const padded = data.byteLength % 2 === 1 ? concat([data, new Uint8Array(1)]) : data;
  return concat([encoder.encode('RIFF'), u32le(4 + 8 + padded.byteLength), encoder.encode('WEBPVP8L'), u32le(data.byteLength), padded]);
}

/** A one-page PDF showing `lines` (ASCII), with a correct cross-reference table; `size` pads it with a comment. */
export function pdf(lines: readonly string[], size?: number): Uint8Array {
  const escape = (s: string): string => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = lines.map((line, i) => `BT /F1 ${i === 0 ? 18 : 12} Tf 24 ${110 - i * 24} Td (${escape(line)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  if (size !== undefined) {
    const tail = 24 + objects.length * 20 + 64 + String(out.length).length;
    const room = size - out.length - tail;
    if (room > 2) out += `%${'.'.repeat(room - 2)}\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // The estimate of the tail above is close; the last line's comment absorbs what is left.
  if (size !== undefined && out.length < size) out = out.replace(/%%EOF\n$/, `%%EOF\n%${'.'.repeat(Math.max(0, size - out.length - 2))}\n`);
  return encoder.encode(out);
}

/** `seconds` of a `hz` tone: 8 kHz, 8-bit mono PCM WAV. */
export function wav(hz: number, seconds: number): Uint8Array {
  const rate = 8000;
  const samples = Math.round(rate * seconds);
  const out = new Uint8Array(44 + samples);
  const view = new DataView(out.buffer);
  out.set(encoder.encode('RIFF'), 0);
  view.setUint32(4, 36 + samples, true);
  out.set(encoder.encode('WAVEfmt '), 8);
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate, true); // bytes per second
  view.setUint16(32, 1, true); // block align
  view.setUint16(34, 8, true); // bits per sample
  out.set(encoder.encode('data'), 36);
  view.setUint32(40, samples, true);
  for (let i = 0; i < samples; i += 1) out[44 + i] = 128 + Math.round(40 * Math.sin((2 * Math.PI * hz * i) / rate));
  return out;
}

/** A sky-to-sea scene: the seed's photos are this, in other colours. */
export function scene(sky: Rgb, sea: Rgb, sun: Rgb, width: number, height: number): Paint {
  return (x, y) => {
    const horizon = height * 0.6;
    const dx = x - width * 0.7;
    const dy = y - height * 0.35;
    if (dx * dx + dy * dy < (height * 0.12) ** 2) return sun;
    const base = y < horizon ? sky : sea;
    const t = y < horizon ? y / horizon : (y - horizon) / (height - horizon);
    const shade = y < horizon ? 1 - 0.35 * t : 0.85 - 0.3 * t;
    return [Math.round(base[0] * shade), Math.round(base[1] * shade), Math.round(base[2] * shade)];
  };
}

/** An SVG picture (text); `size` pads it with a comment. */
export function svg(title: string, colours: readonly [string, string, string], size?: number): Uint8Array {
  const picture =
    `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160" viewBox="0 0 240 160"><title>${title}</title>` +
      `<rect width="240" height="160" fill="${colours[0]}"/><circle cx="170" cy="60" r="28" fill="${colours[1]}"/>` +
      `<path d="M0 120 Q60 90 120 120 T240 120 V160 H0 Z" fill="${colours[2]}"/></svg>\n`;
  const pad = size === undefined ? 0 : size - picture.length - 8;
  return encoder.encode(pad > 0 ? `${picture}<!--${' '.repeat(pad)}-->\n` : picture);
}
