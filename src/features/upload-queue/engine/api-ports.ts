import type { QsClient } from '../../../api/client.ts';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  initiateMultipartUpload,
  listParts,
  uploadPart,
} from '../../../api/multipart/operations.ts';
import { ApiError } from '../../../api/errors.ts';
import { headObject } from '../../../api/objects/read.ts';
import { deleteObject, moveObject } from '../../../api/objects/write.ts';
import { postObject } from '../../../api/post-object/operations.ts';
import type { UploadPorts } from './ports.ts';

/** The engine's ports over the real api layer (src/api): signing, XHR progress, typed errors. */
export function createApiPorts(client: QsClient): UploadPorts {
  return {
    async postObject({ onProgress, ...input }, signal) {
      const result = await postObject(client, { ...input, ...(onProgress ? { onProgress } : {}) }, { signal });
      return { etag: result.etag, requestId: result.requestId };
    },
    async initiateMultipartUpload(input, signal) {
      const result = await initiateMultipartUpload(client, input, { signal });
      return { uploadId: result.upload_id };
    },
    async uploadPart({ onProgress, ...input }, signal) {
      const result = await uploadPart(client, { ...input, ...(onProgress ? { onProgress } : {}) }, { signal });
      return { etag: result.etag };
    },
    async listParts(input, signal) {
      const page = await listParts(client, input, { signal });
      return {
        parts: page.object_parts.map((p) => ({
          partNumber: p.part_number,
          ...(p.size === undefined ? {} : { size: p.size }),
          ...(p.etag === undefined ? {} : { etag: p.etag }),
        })),
      };
    },
    async completeMultipartUpload(input, signal) {
      await completeMultipartUpload(client, input, { signal });
    },
    async headObject(input, signal) {
      try {
        const head = await headObject(client, input, { signal });
        return { size: head.size, ...(head.etag === undefined ? {} : { etag: head.etag }) };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    async abortMultipartUpload(input, signal) {
      await abortMultipartUpload(client, input, { signal });
    },
    async moveObject({ sourceKey, ifMatch, ...input }, signal) {
      try {
        await moveObject(client, { ...input, source: { bucket: input.bucket, key: sourceKey }, conditions: { ifMatch } }, { signal });
        return 'moved';
      } catch (error) {
        if (error instanceof ApiError && error.status === 412) return 'preconditionFailed';
        if (error instanceof ApiError && error.code === 'object_not_exists') return 'sourceMissing';
        throw error;
      }
    },
    async deleteObject(input, signal) {
      await deleteObject(client, input, { signal });
    },
  };
}
