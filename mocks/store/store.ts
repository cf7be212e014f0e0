import { QsError } from '../errors.ts';
import type {
  AclGrant,
  AppendObjectInput,
  AppendObjectResult,
  BucketInfo,
  BucketPolicy,
  BucketStatistics,
  BulkObjectInput,
  CompleteUploadInput,
  CopyObjectInput,
  CorsConfiguration,
  CreateBucketInput,
  DeleteObjectsResult,
  InitiateUploadInput,
  ListBucketsInput,
  ListBucketsResult,
  ListObjectsInput,
  ListObjectsResult,
  ListPartsInput,
  ListPartsResult,
  ListUploadsInput,
  ListUploadsResult,
  MoveObjectInput,
  PartInfo,
  PutObjectInput,
  StoredObject,
  StoreOptions,
  UploadInfo,
  UploadPartInput,
} from './types.ts';

function notYet(): never {
  throw new QsError('internal_error', 'not implemented yet');
}

export class Store {
  private constructor(_options: StoreOptions) {}

  /** The only async step: loads the wasm MD5 so every other method can be synchronous. */
  static async create(options: StoreOptions = {}): Promise<Store> {
    return new Store(options);
  }

  now(): Date {
    return notYet();
  }

  // buckets
  createBucket(_input: CreateBucketInput): BucketInfo {
    return notYet();
  }
  getBucket(_name: string): BucketInfo {
    return notYet();
  }
  findBucket(_name: string): BucketInfo | undefined {
    return notYet();
  }
  deleteBucket(_name: string): void {
    notYet();
  }
  listBuckets(_input: ListBucketsInput): ListBucketsResult {
    return notYet();
  }
  putBucketAcl(_name: string, _acl: readonly AclGrant[]): BucketInfo {
    return notYet();
  }
  putBucketCors(_name: string, _cors: CorsConfiguration): BucketInfo {
    return notYet();
  }
  deleteBucketCors(_name: string): BucketInfo {
    return notYet();
  }
  putBucketPolicy(_name: string, _policy: BucketPolicy): BucketInfo {
    return notYet();
  }
  deleteBucketPolicy(_name: string): BucketInfo {
    return notYet();
  }
  getBucketStatistics(_name: string): BucketStatistics {
    return notYet();
  }

  // objects
  putObject(_bucket: string, _key: string, _input: PutObjectInput): StoredObject {
    return notYet();
  }
  getObject(_bucket: string, _key: string): StoredObject {
    return notYet();
  }
  findObject(_bucket: string, _key: string): StoredObject | undefined {
    return notYet();
  }
  copyObject(_input: CopyObjectInput): StoredObject {
    return notYet();
  }
  moveObject(_input: MoveObjectInput): StoredObject {
    return notYet();
  }
  appendObject(_bucket: string, _key: string, _input: AppendObjectInput): AppendObjectResult {
    return notYet();
  }
  deleteObject(_bucket: string, _key: string): void {
    notYet();
  }
  deleteObjects(_bucket: string, _keys: readonly string[]): DeleteObjectsResult {
    return notYet();
  }
  listObjects(_bucket: string, _input: ListObjectsInput): ListObjectsResult {
    return notYet();
  }
  bulkLoad(_bucket: string, _entries: Iterable<BulkObjectInput>): number {
    return notYet();
  }

  // multipart
  initiateMultipartUpload(_bucket: string, _key: string, _input: InitiateUploadInput): UploadInfo {
    return notYet();
  }
  getUpload(_bucket: string, _key: string, _uploadId: string): UploadInfo {
    return notYet();
  }
  uploadPart(_bucket: string, _key: string, _uploadId: string, _partNumber: number, _input: UploadPartInput): PartInfo {
    return notYet();
  }
  listParts(_bucket: string, _key: string, _uploadId: string, _input: ListPartsInput): ListPartsResult {
    return notYet();
  }
  completeMultipartUpload(_bucket: string, _key: string, _uploadId: string, _input: CompleteUploadInput): StoredObject {
    return notYet();
  }
  abortMultipartUpload(_bucket: string, _key: string, _uploadId: string): void {
    notYet();
  }
  listMultipartUploads(_bucket: string, _input: ListUploadsInput): ListUploadsResult {
    return notYet();
  }
}
