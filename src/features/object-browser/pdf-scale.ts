// Apart from preview-kind.ts: only the lazily loaded pdf-render.ts needs it, and sharing preview-kind.ts with that
// chunk would split it out of the details panel's chunk into one more request.

/** A PDF page is drawn on at most this many canvas pixels, whatever size the document claims for it. */
export const PDF_MAX_CANVAS_PIXELS = 8 * 1024 * 1024;

/**
 * The canvas scale (canvas pixels per PDF point) of a page `width`×`height` points shown `cssWidth` CSS pixels
 * wide: sharp at `pixelRatio`, lowered to stay within PDF_MAX_CANVAS_PIXELS (CSS then stretches the canvas).
 */
export function pageScale(width: number, height: number, cssWidth: number, pixelRatio: number): number {
  return Math.min((cssWidth / Math.max(width, 1)) * pixelRatio, Math.sqrt(PDF_MAX_CANVAS_PIXELS / Math.max(width * height, 1)));
}
