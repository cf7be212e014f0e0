/** Multipart uploads of the Store (ref §8): initiate, parts, list, complete, abort, list uploads. */
import { QsError } from '../errors.ts';
import { joinBodies, makeBody, segmentsBytes } from './body.ts';
import { checkObjectKey, compareKeys } from './keys.ts';
import { effectiveLimit, scanListing } from './listing.ts';
import { checkContentMd5 } from './md5.ts';
import { cursorAfter } from './sorted-index.ts';
import type { Cursor } from './sorted-index.ts';
import { unquoteEtag } from '../../src/api/protocol/etag.ts';
import { MAX_PART_NUMBER } from '../../src/api/protocol/limits.ts';
import type {
  CompleteUploadInput,
  InitiateUploadInput,
  ListPartsInput,
  ListPartsResult,
  ListUploadsInput,
  ListUploadsResult,
  ObjectBody,
  PartInfo,
  StoredObject,
  UploadInfo,
  UploadPartInput,
} from './types.ts';
import { type UploadState, type BucketState, uploadKeyOf, wholeSeconds, normalizeMetadata, randomHex, upperBoundNumber } from './state.ts';
import { ObjectStore } from './objects.ts';

export abstract class MultipartStore extends ObjectStore {
  /**
   * Upload ids are 32 lowercase hex (ref §8.1, inferred): 12 hex digits of a strictly increasing
   * millisecond stamp, then 20 random digits. Ids therefore sort in creation order, which gives
   * ListMultipartUploads its "key, then creation" order and keeps upload_id_marker meaningful
   * even after that upload is gone.
   */
  protected newUploadId(now: Date): string {
    this.lastUploadStamp = Math.max(this.lastUploadStamp + 1, now.getTime());
    return this.lastUploadStamp.toString(16).padStart(12, '0').slice(-12) + randomHex(20);
  }

  initiateMultipartUpload(bucket: string, key: string, input: InitiateUploadInput): UploadInfo {
    const state = this.bucketState(bucket);
    checkObjectKey(key);
    const created = this.clock();
    const info: UploadInfo = {
      bucket,
      key,
      uploadId: this.newUploadId(created),
      created: new Date(created.getTime()),
      metadata: normalizeMetadata(input.metadata),
      storageClass: input.storageClass ?? 'STANDARD',
    };
    const upload: UploadState = { info, parts: new Map(), partNumbers: [] };
    this.journal?.putUpload(info);
    state.uploads.set(info.uploadId, upload);
    state.uploadIndex.set(upload);
    return info;
  }

  protected uploadState(bucket: string, key: string, uploadId: string): { state: BucketState; upload: UploadState } {
    const state = this.bucketState(bucket);
    const upload = state.uploads.get(uploadId);
    if (upload === undefined || upload.info.key !== key) throw new QsError('upload_not_exists');
    return { state, upload };
  }

  /** Throws bucket_not_exists / upload_not_exists (also when the id belongs to another key). */
  getUpload(bucket: string, key: string, uploadId: string): UploadInfo {
    return this.uploadState(bucket, key, uploadId).upload.info;
  }

  /** UploadMultipart (ref §8.2): part 0..10000, re-upload replaces, etag = MD5 of the part. */
  uploadPart(bucket: string, key: string, uploadId: string, partNumber: number, input: UploadPartInput): PartInfo {
    const { upload } = this.uploadState(bucket, key, uploadId);
    if (!Number.isInteger(partNumber) || partNumber < 0 || partNumber > MAX_PART_NUMBER) {
      throw new QsError('invalid_argument', `part_number must be an integer from 0 to ${MAX_PART_NUMBER}.`);
    }
    const body = makeBody(input.body);
    this.checkSize(body.size);
    const etag = input.md5 ?? this.md5.hex(segmentsBytes(body.chunks));
    checkContentMd5(input.contentMd5, etag);
    const part: PartInfo = { partNumber, size: body.size, etag, created: new Date(this.clock().getTime()), body };
    this.journal?.putPart(bucket, uploadId, part);
    if (!upload.parts.has(partNumber)) {
      upload.partNumbers.splice(upperBoundNumber(upload.partNumbers, partNumber), 0, partNumber);
    }
    upload.parts.set(partNumber, part);
    return part;
  }

  /** ListMultipart (ref §8.4): parts after `partNumberMarker`, ascending; count = parts of the upload. */
  listParts(bucket: string, key: string, uploadId: string, input: ListPartsInput): ListPartsResult {
    const { upload } = this.uploadState(bucket, key, uploadId);
    const limit = effectiveLimit(input.limit, this.maxPartsListLimit, this.maxPartsListLimit);
    if (limit === null) throw new QsError('invalid_argument', 'limit must be a non-negative integer.');
    const numbers = upload.partNumbers;
    const from = input.partNumberMarker === undefined ? 0 : upperBoundNumber(numbers, input.partNumberMarker);
    const to = Math.min(numbers.length, from + limit);
    const parts: PartInfo[] = [];
    for (let i = from; i < to; i++) {
      const part = upload.parts.get(numbers[i] ?? -1);
      if (part !== undefined) parts.push(part);
    }
    return { count: numbers.length, parts, hasMore: to < numbers.length, limit };
  }

  /**
   * CompleteMultipartUpload (ref §8.5, inferred details): parts strictly ascending, every listed
   * part uploaded and its etag (if given) equal ignoring quotes, else invalid_argument; every part
   * but the last at least minPartSize, else entity_too_small. Unlisted parts are discarded. The
   * object gets the initiate-time metadata and class, its body references the part chunks (no
   * byte is copied) and its ETag is the client's value or null.
   */
  completeMultipartUpload(bucket: string, key: string, uploadId: string, input: CompleteUploadInput): StoredObject {
    const { state, upload } = this.uploadState(bucket, key, uploadId);
    if (input.parts.length === 0) throw new QsError('invalid_argument', 'object_parts must list at least one part.');
    const bodies: ObjectBody[] = [];
    let previousNumber = -1;
    for (let i = 0; i < input.parts.length; i++) {
      const ref = input.parts[i];
      if (ref === undefined) continue;
      if (!Number.isInteger(ref.partNumber) || ref.partNumber <= previousNumber) {
        throw new QsError('invalid_argument', 'object_parts must be in strictly ascending part_number order.');
      }
      previousNumber = ref.partNumber;
      const part = upload.parts.get(ref.partNumber);
      if (part === undefined) throw new QsError('invalid_argument', `Part ${ref.partNumber} was not uploaded.`);
      if (ref.etag !== undefined && unquoteEtag(ref.etag).toLowerCase() !== part.etag) {
        throw new QsError('invalid_argument', `The etag of part ${ref.partNumber} does not match.`);
      }
      if (i < input.parts.length - 1 && part.size < this.minPartSize) {
        throw new QsError('entity_too_small', `Part ${ref.partNumber} is smaller than ${this.minPartSize} bytes.`);
      }
      bodies.push(part.body);
    }
    const body = joinBodies(bodies);
    const now = wholeSeconds(this.clock());
    const clientEtag = input.etag === undefined || input.etag === null ? '' : unquoteEtag(input.etag);
    const record: StoredObject = {
      key,
      body,
      size: body.size,
      etag: clientEtag === '' ? null : clientEtag,
      created: now,
      lastModified: now,
      contentType: upload.info.metadata.standard['content-type'],
      metadata: upload.info.metadata,
      storageClass: upload.info.storageClass,
      appendable: false,
    };
    this.atomically(() => {
      this.writeObject(state, record);
      this.dropUpload(state, upload);
    });
    return record;
  }

  protected dropUpload(state: BucketState, upload: UploadState): void {
    this.journal?.deleteUpload(state.info.name, upload.info.uploadId);
    state.uploads.delete(upload.info.uploadId);
    state.uploadIndex.delete(upload);
  }

  /** Idempotent (ref §8.6): unknown/completed ids are fine; only a missing bucket fails. */
  abortMultipartUpload(bucket: string, key: string, uploadId: string): void {
    const state = this.bucketState(bucket);
    const upload = state.uploads.get(uploadId);
    if (upload !== undefined && upload.info.key === key) this.dropUpload(state, upload);
  }

  /**
   * ListMultipartUploads (ref §8.7): in-progress uploads by key, then creation; `keyMarker` alone
   * skips every upload of that key, with `uploadIdMarker` it resumes after that upload. Common
   * prefixes only where uploads exist. Markers are '' once nothing more follows.
   */
  listMultipartUploads(bucket: string, input: ListUploadsInput): ListUploadsResult {
    const state = this.bucketState(bucket);
    const limit = effectiveLimit(input.limit, this.defaultUploadsListLimit, this.maxUploadsListLimit);
    if (limit === null) throw new QsError('invalid_argument', 'limit must be a non-negative integer.');
    const prefix = input.prefix ?? '';
    const delimiter = input.delimiter ?? '';
    const keyMarker = input.keyMarker ?? '';
    const uploadIdMarker = input.uploadIdMarker ?? '';
    const index = state.uploadIndex;
    const atPrefix = index.seek((u) => compareKeys(u.info.key, prefix) >= 0);
    let start: Cursor = atPrefix;
    if (keyMarker !== '') {
      const afterMarker = index.seek((u) => {
        const c = compareKeys(u.info.key, keyMarker);
        return c > 0 || (c === 0 && uploadIdMarker !== '' && u.info.uploadId > uploadIdMarker);
      });
      if (cursorAfter(afterMarker, atPrefix)) start = afterMarker;
    }
    const page = scanListing({
      index,
      keyOf: uploadKeyOf,
      start,
      prefix,
      delimiter,
      // a common prefix equal to or before the key marker was returned on an earlier page
      marker: keyMarker,
      limit,
    });
    const last = page.last;
    let nextKeyMarker = '';
    let nextUploadIdMarker = '';
    if (page.hasMore && last !== null) {
      if (last.kind === 'item') {
        nextKeyMarker = last.item.info.key;
        nextUploadIdMarker = last.item.info.uploadId;
      } else nextKeyMarker = last.prefix;
    }
    return {
      uploads: page.items.map((u) => u.info),
      commonPrefixes: page.commonPrefixes,
      hasMore: page.hasMore,
      nextKeyMarker,
      nextUploadIdMarker,
      limit,
    };
  }
}
