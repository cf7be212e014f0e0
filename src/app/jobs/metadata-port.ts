import type { MetadataWritePort } from '../../features/bulk-jobs/engine/ops/unit.ts';
import { copyLimitOf } from '../../api/metadata/large-copy.ts';
import { SaveBlockedError, saveBlock, writeOverVersion } from '../../api/metadata/save.ts';

/**
 * The metadata feature's guarded write, handed to the bulk-jobs engine (features never import each other):
 * the same checks as the single editor (every header a REPLACE save would resend must be readable, the copy
 * is conditional on the version read, a multipart copy above the copy limit). A job cannot acknowledge
 * hidden custom keys object by object, so it never does. The engine's HEAD and this write are
 * editObjectMetadata's two halves (src/api/metadata/save.ts) without its read-back: HEAD, the
 * conditional copy, no second read before the copy; the engine stores its "about to write" record in
 * between, and checks what it wrote from the listing, many objects at a time (ops/verify.ts).
 */
export const metadataWritePort: MetadataWritePort = {
  block: (client, visibility, head) => saveBlock(visibility, head, false, copyLimitOf(client.connection))?.kind ?? null,
  async write(client, { zone, bucket, key, fresh, edits, visibility, signal }) {
    try {
      const result = await writeOverVersion(client, { ref: { zone, bucket, key }, base: fresh, edits, visibility, ...(signal ? { signal } : {}) });
      if (result.kind === 'written') return { kind: 'written', sent: result.sent, etag: result.etag, requestId: result.requestId };
      return { kind: 'conflict', detectedBy: result.detectedBy, theirs: result.theirs };
    } catch (error) {
      if (error instanceof SaveBlockedError) return { kind: 'blocked', block: error.block.kind };
      throw error;
    }
  },
};
