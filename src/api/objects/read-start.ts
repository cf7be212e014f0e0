/**
 * The first bytes of an object, for a text preview, never more than asked for whatever the server sends:
 * the body is read as a stream and cancelled once `maxBytes` have arrived, so a server that ignores Range
 * (answering 200 with everything) costs at most that much of the page's memory and the connection is closed.
 *
 * How the bytes are asked for depends on the object's stored Content-Encoding (ref §5.4). A ranged answer
 * that still says `Content-Encoding: gzip` is a cut compressed stream, which the browser refuses to decode
 * (net::ERR_CONTENT_DECODING_FAILED, reported like a CORS block), so:
 * - none: a Range GET of the first `maxBytes`;
 * - gzip or deflate on a signed connection: a Range GET of the first `maxBytes` of the stored bytes with
 *   `response-content-encoding=identity`, decompressed here (DecompressionStream) up to `maxBytes` of text;
 * - any other coding (br), or an anonymous connection (which may not override response headers): a GET
 *   without Range, decoded by the browser as it arrives and cut after `maxBytes` of decoded text;
 * - one the browser refuses (`refused`, see headObjectReadable): the stored bytes as they are, with
 *   `response-content-encoding=identity` (signed connections only).
 * Bytes that cannot be decoded as their coding says are a ContentDecodingError naming it, never a CORS diagnosis.
 */
import type { ObjectRef, QsClient, CallOptions } from '../client.ts';
import { NetworkError, isAbortError } from '../errors.ts';

export interface ObjectStartInput extends ObjectRef {
  maxBytes: number;
  /** The stored Content-Encoding as HEAD showed it ('' or undefined: none). */
  contentEncoding?: string;
  /** The browser refused the stored Content-Encoding (its value is unknown). */
  refused?: boolean;
}

export interface ObjectStart {
  bytes: Uint8Array<ArrayBuffer>;
  /** More of the object (or of its decoded text) exists than `bytes` holds. */
  truncated: boolean;
  /** 'decoded': the browser decoded the stored encoding; 'stored': the bytes as stored, undecoded. */
  form: 'plain' | 'decoded' | 'stored';
}

/** The browser could not decode the object's body as its stored Content-Encoding says. */
export class ContentDecodingError extends Error {
  /** The stored Content-Encoding; '' when the browser refused it and its value is unknown. */
  readonly encoding: string;
  constructor(encoding: string, cause?: unknown) {
    super(encoding === '' ? 'The object’s stored Content-Encoding is one the browser refuses' : `The object’s body could not be decoded as Content-Encoding ${encoding}`, { cause });
    this.name = 'ContentDecodingError';
    this.encoding = encoding;
  }
}

/** Content codings a stored value names, lower-case, without `identity`. */
export function storedEncodings(contentEncoding: string | undefined): string[] {
  return (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

export async function readObjectStart(client: QsClient, input: ObjectStartInput, options: CallOptions = {}): Promise<ObjectStart> {
  const { maxBytes } = input;
  const encodings = storedEncodings(input.contentEncoding);
  const ref = { zone: input.zone, bucket: input.bucket, key: input.key };
  if (input.refused) {
    // Only a signed request may override response headers (ref §5.4).
    if (client.connection.credentials === undefined) throw new ContentDecodingError('');
    const response = await client.send({ ...sendOf(ref, options), headers: { range: `bytes=0-${maxBytes - 1}` }, query: { 'response-content-encoding': 'identity' } });
    const read = await readAtMost(response.body, maxBytes);
    return { bytes: read.bytes, truncated: truncatedRange(response, read), form: 'stored' };
  }
  if (encodings.length > 0) {
    const encoding = encodings.join(', ');
    const format = encodings.length === 1 ? DECOMPRESSION_FORMATS[encodings[0] ?? ''] : undefined;
    if (format !== undefined && client.connection.credentials !== undefined && typeof DecompressionStream === 'function') {
      const response = await client.send({ ...sendOf(ref, options), headers: { range: `bytes=0-${maxBytes - 1}` }, query: { 'response-content-encoding': 'identity' } });
      const stored = await readAtMost(response.body, maxBytes);
      return decompressStart(stored.bytes, format, !truncatedRange(response, stored), maxBytes, encoding);
    }
    try {
      const response = await client.send(sendOf(ref, options));
      const read = await readAtMost(response.body, maxBytes);
      return { bytes: read.bytes, truncated: !read.ended, form: 'decoded' };
    } catch (error) {
      if (isAbortError(error) || options.signal?.aborted) throw error;
      if (error instanceof NetworkError || error instanceof TypeError) throw new ContentDecodingError(encoding, error);
      throw error;
    }
  }
  const response = await client.send({ ...sendOf(ref, options), headers: { range: `bytes=0-${maxBytes - 1}` } });
  const read = await readAtMost(response.body, maxBytes);
  return { bytes: read.bytes, truncated: truncatedRange(response, read), form: 'plain' };
}

/** Stored codings decompressed here (HTTP's `deflate` is the zlib format). */
const DECOMPRESSION_FORMATS: Readonly<Record<string, CompressionFormat>> = { gzip: 'gzip', 'x-gzip': 'gzip', deflate: 'deflate' };

/**
 * The first `maxBytes` of what `stored` (the start of a compressed body, all of it when `complete`)
 * decompresses to. A cut body ends in an error once its bytes run out: what came before is the text's start.
 */
async function decompressStart(stored: Uint8Array<ArrayBuffer>, format: CompressionFormat, complete: boolean, maxBytes: number, encoding: string): Promise<ObjectStart> {
  const stream = new Blob([stored]).stream().pipeThrough(new DecompressionStream(format));
  const read = await readChunks(stream, maxBytes);
  if (read.failure !== undefined && (complete || read.bytes.byteLength === 0)) throw new ContentDecodingError(encoding, read.failure);
  return { bytes: read.bytes, truncated: !read.ended || !complete, form: 'decoded' };
}

function sendOf(ref: ObjectRef, options: CallOptions) {
  return { operation: 'GetObject', method: 'GET' as const, zone: ref.zone, bucket: ref.bucket, key: ref.key, signal: options.signal };
}

/** A 206's Content-Range total says whether more exists; a 200 (Range ignored) is cut when the stream was. */
function truncatedRange(response: Response, read: { bytes: Uint8Array; ended: boolean }): boolean {
  if (!read.ended) return true;
  const total = /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '')?.[1];
  return response.status === 206 && total !== undefined && Number(total) > read.bytes.byteLength;
}

/**
 * At most `max` bytes of `body`; the rest is never read: the stream is cancelled, which closes the
 * connection (or stops the decoding) instead of downloading what nobody will see. `ended`: the stream
 * finished before `max` bytes were taken.
 */
export async function readAtMost(body: ReadableStream<Uint8Array> | null, max: number): Promise<{ bytes: Uint8Array<ArrayBuffer>; ended: boolean }> {
  const read = await readChunks(body, max);
  if (read.failure !== undefined) throw read.failure;
  return { bytes: read.bytes, ended: read.ended };
}

/** readAtMost that keeps what arrived before a failure. */
async function readChunks(body: ReadableStream<Uint8Array> | null, max: number): Promise<{ bytes: Uint8Array<ArrayBuffer>; ended: boolean; failure?: unknown }> {
  const out = new Uint8Array(max);
  if (body === null) return { bytes: out.slice(0, 0), ended: true };
  const reader = body.getReader();
  let size = 0;
  let ended = false;
  let failure: unknown;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      const take = Math.min(value.byteLength, max - size);
      out.set(take === value.byteLength ? value : value.subarray(0, take), size);
      size += take;
    }
  } catch (error) {
    failure = error;
  } finally {
    if (!ended && failure === undefined) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return failure === undefined ? { bytes: out.slice(0, size), ended } : { bytes: out.slice(0, size), ended, failure };
}
