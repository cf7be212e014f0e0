import { registerEnglish } from '../registry.ts';

/**
 * English messages of the Preview tab's notes on how a file was read and shown (bounded JSON, decompressed
 * text, stored bytes, PDFs drawn page by page). They travel with the code that shows them, not in the entry
 * chunk: every module that uses a `preview.*` key imports this one (src/i18n/parts.test.ts checks it), and
 * importing it registers the messages before any of them is rendered. The Chinese catalog stays whole (zh-cn.ts).
 */
export const previewEn = {
  'preview.jsonFlattened': 'JSON, formatted for reading; levels deeper than {depth} stay on one line.',
  'preview.jsonTooLong': 'JSON, shown as stored: formatted, it would be too long to show.',
  'preview.csvAsText': 'CSV, shown as text: a cell holds more than {max} characters without a space, too long to lay out as a table.',
  'preview.decoded': 'Stored compressed (Content-Encoding {encoding}); shown decompressed.',
  'preview.decodedTruncated': 'Showing the first {shown} of the decompressed text.',
  'preview.stored': 'Its stored Content-Encoding is one browsers refuse, so its bytes are shown as stored, not decoded. To repair it, use Edit metadata: clear Content-Encoding and save.',
  'preview.decodeFailed': 'No preview: the object is stored with Content-Encoding {encoding}, but its bytes could not be decoded that way. Download it, or correct its Content-Encoding with Edit metadata.',
  'preview.refusedAnonymous': 'No preview: its stored Content-Encoding is one browsers refuse, and an anonymous connection cannot ask for the bytes as stored.',
  'preview.pdfNote': 'Drawn by the console from the file’s pages; scripts, links and forms in it are not run.',
  'preview.pdfOpening': 'Reading the PDF…',
  'preview.pdfPage': 'Page {page} of {count}',
  'preview.pdfPageOf': 'Page {page} of {count} of {name}',
  'preview.pdfMore': 'Showing the first {shown} of {count} pages. Download the file to read the rest.',
  'preview.pdfPageFailed': 'Page {page} could not be drawn: the file is damaged there.',
  'preview.pdfTooBig': 'No preview: at {size} this PDF is larger than the {max} a preview reads. Download it instead.',
  'preview.pdfDamaged': 'No preview: this file could not be read as a PDF (it is damaged, or not a PDF). Download it to open it with another program.',
  'preview.pdfDownload': 'Download the PDF',
  'preview.pdfPassword': 'No preview: this PDF is protected by a password. Download it to open it.',
} as const satisfies Record<`preview.${string}`, string>;

registerEnglish(previewEn);
