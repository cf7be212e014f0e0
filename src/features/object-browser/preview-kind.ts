import type { ObjectHead } from '../../api/objects/read.ts';

/**
 * What the Preview tab can show for an object, decided from its Content-Type (and, for text stored as
 * `application/octet-stream`, its name) and size. Nothing of an object is ever rendered as a document of the
 * console: HTML, SVG and XML are shown as their source text; images, audio, video and PDF are loaded by the
 * browser's own viewers from a short-lived pre-signed link with the type forced to the one decided here; a PDF is
 * read (bounded) and drawn on canvases by the console, never given to the browser's PDF viewer (which runs scripts).
 */

/** The object a preview shows: where it is, its name as shown, its HEAD, and whether the session is the demo. */
export interface PreviewTarget {
  zone: string;
  bucket: string;
  objectKey: string;
  name: string;
  head: ObjectHead;
  demo: boolean;
}

/** Text previews read at most this much (a Range request). */
export const TEXT_PREVIEW_BYTES = 256 * 1024;
/** Larger images are not previewed (the bytes would all be downloaded to show a thumbnail). */
export const IMAGE_PREVIEW_MAX = 20 * 1024 * 1024;
/** A PDF preview reads at most this much (the whole file, which pdf.js needs); larger ones offer Download. */
export const PDF_PREVIEW_BYTES = 20 * 1024 * 1024;
/** A PDF preview draws at most this many pages. */
export const PDF_PREVIEW_PAGES = 3;

export type TextFormat = 'plain' | 'json' | 'csv' | 'markdown' | 'source';

export type PreviewKind =
  | { kind: 'image'; type: string }
  | { kind: 'audio'; type: string }
  | { kind: 'video'; type: string }
  | { kind: 'pdf'; type: 'application/pdf' }
  | { kind: 'text'; format: TextFormat }
  | { kind: 'none'; reason: 'tooBig' | 'unknownType' | 'empty' };

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);
const TEXT_EXTENSIONS: Record<string, TextFormat> = {
  txt: 'plain', log: 'plain', md: 'markdown', markdown: 'markdown', json: 'json', ndjson: 'plain', csv: 'csv',
  tsv: 'plain', yaml: 'plain', yml: 'plain', xml: 'source', html: 'source', htm: 'source', svg: 'source', ini: 'plain',
};

function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function textFormat(type: string, key: string): TextFormat | null {
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/csv') return 'csv';
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  // Markup is shown as its source, never rendered.
  if (type === 'text/html' || type === 'image/svg+xml' || type === 'application/xhtml+xml' || type.endsWith('+xml') || type.endsWith('/xml')) return 'source';
  if (type.startsWith('text/') || type === 'application/javascript' || type === 'application/x-ndjson' || type === 'application/yaml') return 'plain';
  if (type === 'application/octet-stream' || type === '' || type === 'binary/octet-stream') {
    const dot = key.lastIndexOf('.');
    const extension = dot > key.lastIndexOf('/') ? key.slice(dot + 1).toLowerCase() : '';
    return TEXT_EXTENSIONS[extension] ?? null;
  }
  return null;
}

export function previewKind(input: { key: string; contentType: string; size: number }): PreviewKind {
  const type = mediaType(input.contentType);
  if (input.size === 0) return { kind: 'none', reason: 'empty' };
  const text = textFormat(type, input.key);
  if (text !== null) return { kind: 'text', format: text };
  if (IMAGE_TYPES.has(type)) return input.size > IMAGE_PREVIEW_MAX ? { kind: 'none', reason: 'tooBig' } : { kind: 'image', type };
  if (/^audio\/[a-z0-9.+-]+$/.test(type)) return { kind: 'audio', type };
  if (/^video\/[a-z0-9.+-]+$/.test(type)) return { kind: 'video', type };
  // Drawn by the console (pdf-preview.tsx), whatever its size: one too big to read says so beside Download.
  if (type === 'application/pdf') return { kind: 'pdf', type };
  return { kind: 'none', reason: 'unknownType' };
}
