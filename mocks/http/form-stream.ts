/**
 * Streaming PostObject form parser for Node (the standalone server), built on busboy: it reads the form
 * only up to its `file` part and hands that part over unread, so the handler checks the policy, the
 * signature, the bucket and its ACL before a single byte of the file is consumed. A refused form leaves
 * the rest of the body unread (the adapter then closes the connection). Not used in the browser.
 */
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { QsError } from '../errors.ts';
import type { PostForm, PostFormReader } from './post-form.ts';

/** Limits on the fields before the file: they are held in memory and compared with the policy. */
const FIELD_LIMITS = { fieldSize: 1024 * 1024, fields: 1000, parts: 1001, headerPairs: 100, fieldNameSize: 1024 };

function invalid(message: string): QsError {
  return new QsError('invalid_request', message);
}

/** The file part's chunks; stopping early (a size limit) destroys the part stream. */
async function* fileChunks(stream: Readable): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) {
    if (chunk instanceof Uint8Array) yield chunk;
  }
}

/** A web stream's chunks, pulled one at a time (so the socket is read only as fast as busboy parses). */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

export const streamingFormReader: PostFormReader = (request) => {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) return Promise.reject(invalid('PostObject needs a multipart/form-data body.'));
  if (request.body === null) return Promise.reject(invalid('The form has no file field.'));
  let parser: busboy.Busboy;
  try {
    // preservePath: `${filename}` takes the base name itself (ref §7), from the name exactly as sent.
    parser = busboy({ headers: { 'content-type': type }, limits: FIELD_LIMITS, preservePath: true, defParamCharset: 'utf8' });
  } catch {
    return Promise.reject(invalid('The multipart/form-data body could not be parsed (boundary).'));
  }
  const source = Readable.from(chunksOf(request.body), { objectMode: false });
  return new Promise<PostForm>((resolve, reject) => {
    const fields: Array<[string, string]> = [];
    let settled = false;
    const fail = (error: QsError): void => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      reject(error);
    };
    parser.on('field', (name, value, info) => {
      if (settled) return;
      if (info.nameTruncated || info.valueTruncated) {
        fail(invalid(`The form field "${name}" is longer than ${FIELD_LIMITS.fieldSize} bytes; send the file as a file part.`));
        return;
      }
      if (name.toLowerCase() === 'file') {
        // A `file` field sent as plain text still carries the content (e.g. curl -F file=text).
        settled = true;
        const bytes = new TextEncoder().encode(value);
        resolve({
          fields,
          file: {
            name: '',
            type: '',
            chunks: async function* () {
              yield bytes;
            },
          },
        });
        return;
      }
      fields.push([name, value]);
    });
    parser.on('file', (name, stream, info) => {
      if (settled || name.toLowerCase() !== 'file') {
        // Files under other names are not the upload (and nothing after `file` counts, ref §7).
        stream.resume();
        return;
      }
      settled = true;
      resolve({ fields, file: { name: info.filename ?? '', type: info.mimeType, chunks: () => fileChunks(stream) } });
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(limit, () => fail(invalid('The form has too many parts.')));
    }
    parser.on('error', () => fail(invalid('The multipart/form-data body could not be parsed.')));
    parser.on('close', () => fail(invalid('The form has no file field.')));
    source.on('error', (error: Error) => {
      if (!settled) {
        settled = true;
        reject(error);
      } else parser.destroy(error);
    });
    source.pipe(parser);
  });
};
