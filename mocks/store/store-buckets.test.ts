import { describe, it, expect } from 'vitest';
import { Store } from './store.ts';
import { BUCKET, OWNER, codeOf, storeWithBucket, testClock, text } from './test-helpers.ts';

describe('buckets', () => {
  it('creates a bucket with owner, zone, whole-second created time and empty settings (ref §9.2)', async () => {
    const clock = testClock();
    const store = await Store.create({ now: clock.now });
    const info = store.createBucket({ name: 'photos-2024', zone: 'sh1a', ownerId: OWNER });
    expect(info).toEqual({
      name: 'photos-2024',
      zone: 'sh1a',
      ownerId: OWNER,
      created: new Date(Date.UTC(2024, 4, 1, 12, 0, 0)),
      status: 'active',
      acl: [],
      cors: null,
      policy: null,
      lifecycle: null,
    });
    expect(store.getBucket('photos-2024')).toBe(info);
    expect(store.findBucket('nothere')).toBeUndefined();
    expect(codeOf(() => store.getBucket('nothere'))).toBe('bucket_not_exists');
  });

  it('rejects invalid names and duplicate names, even across owners and zones', async () => {
    const store = await storeWithBucket();
    expect(codeOf(() => store.createBucket({ name: 'Bad_Name', zone: 'pek3a', ownerId: OWNER }))).toBe('invalid_bucket_name');
    expect(codeOf(() => store.createBucket({ name: 'abc', zone: 'pek3a', ownerId: OWNER }))).toBe('invalid_bucket_name');
    expect(codeOf(() => store.createBucket({ name: BUCKET, zone: 'sh1a', ownerId: 'usr-other' }))).toBe('bucket_already_exists');
  });

  it('enforces the optional per-owner quota', async () => {
    const store = await Store.create({ maxBucketsPerOwner: 1 });
    store.createBucket({ name: 'first-bucket', zone: 'pek3a', ownerId: OWNER });
    expect(codeOf(() => store.createBucket({ name: 'second-bucket', zone: 'pek3a', ownerId: OWNER }))).toBe('too_many_buckets');
    expect(codeOf(() => store.createBucket({ name: 'second-bucket', zone: 'pek3a', ownerId: 'usr-other' }))).toBeUndefined();
  });

  it('lists by owner and zone, ordered by name, with offset/limit and total count (ref §9.1)', async () => {
    const store = await Store.create();
    for (const [name, zone, owner] of [
      ['zeta-bucket', 'pek3a', OWNER],
      ['alpha-bucket', 'sh1a', OWNER],
      ['mid-bucket', 'pek3a', OWNER],
      ['foreign-bucket', 'pek3a', 'usr-other'],
    ] as const) {
      store.createBucket({ name, zone, ownerId: owner });
    }
    const all = store.listBuckets({ ownerId: OWNER });
    expect(all.count).toBe(3);
    expect(all.buckets.map((b) => b.name)).toEqual(['alpha-bucket', 'mid-bucket', 'zeta-bucket']);
    const zone = store.listBuckets({ ownerId: OWNER, zone: 'pek3a' });
    expect(zone.buckets.map((b) => b.name)).toEqual(['mid-bucket', 'zeta-bucket']);
    const page = store.listBuckets({ ownerId: OWNER, offset: 1, limit: 1 });
    expect(page).toMatchObject({ count: 3 });
    expect(page.buckets.map((b) => b.name)).toEqual(['mid-bucket']);
    expect(codeOf(() => store.listBuckets({ ownerId: OWNER, offset: -1 }))).toBe('invalid_argument');
  });

  it('deletes only empty buckets; in-progress uploads do not block (ref §9.3)', async () => {
    const store = await storeWithBucket();
    store.putObject(BUCKET, 'file', { body: text('x') });
    store.initiateMultipartUpload(BUCKET, 'pending', {});
    expect(codeOf(() => store.deleteBucket(BUCKET))).toBe('bucket_not_empty');
    store.deleteObject(BUCKET, 'file');
    store.deleteBucket(BUCKET);
    expect(store.findBucket(BUCKET)).toBeUndefined();
    expect(codeOf(() => store.deleteBucket(BUCKET))).toBe('bucket_not_exists');
    // the name is free again and the new bucket has no leftover uploads
    store.createBucket({ name: BUCKET, zone: 'pek3a', ownerId: OWNER });
    expect(store.listMultipartUploads(BUCKET, {}).uploads).toEqual([]);
  });

  it('replaces the ACL list, stores CORS and policy verbatim and clears them', async () => {
    const store = await storeWithBucket();
    store.putBucketAcl(BUCKET, [{ grantee: { type: 'user', id: 'usr-a' }, permission: 'READ' }]);
    const acl = store.putBucketAcl(BUCKET, [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'WRITE' }]);
    expect(acl.acl).toEqual([{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'WRITE' }]);
    expect(store.putBucketAcl(BUCKET, []).acl).toEqual([]);

    const cors = {
      resp_vary: 'enabled',
      cors_rules: [{ allowed_origin: 'http://*.example.com', allowed_methods: ['GET', 'PUT'], allowed_headers: ['*'], max_age_seconds: 400 }],
    };
    expect(store.putBucketCors(BUCKET, cors).cors).toEqual(cors);
    expect(store.deleteBucketCors(BUCKET).cors).toBeNull();

    const policy = { statement: [{ id: 'allow-list', user: '*', action: ['list_objects'], effect: 'allow', resource: [BUCKET] }] };
    expect(store.putBucketPolicy(BUCKET, policy).policy).toEqual(policy);
    expect(store.getBucket(BUCKET).policy).toEqual(policy);
    expect(store.deleteBucketPolicy(BUCKET).policy).toBeNull();
    expect(store.setBucketStatus(BUCKET, 'suspended').status).toBe('suspended');
    expect(codeOf(() => store.putBucketAcl('nothere', []))).toBe('bucket_not_exists');
  });

  it('keeps statistics per storage class in step with writes, overwrites and deletes (ref §9.6)', async () => {
    const store = await storeWithBucket({ minPartSize: 1 });
    store.putObject(BUCKET, 'a', { body: text('12345') });
    store.putObject(BUCKET, 'b', { body: text('123'), storageClass: 'STANDARD_IA' });
    store.putObject(BUCKET, 'a', { body: text('12') }); // overwrite shrinks
    store.appendObject(BUCKET, 'log', { position: 0, body: text('abcd') });
    store.copyObject({ sourceBucket: BUCKET, sourceKey: 'b', bucket: BUCKET, key: 'b', storageClass: 'STANDARD' });
    const upload = store.initiateMultipartUpload(BUCKET, 'mp', { storageClass: 'STANDARD_IA' });
    store.uploadPart(BUCKET, 'mp', upload.uploadId, 1, { body: text('xyz') });
    // parts of an unfinished upload are not counted
    expect(store.getBucketStatistics(BUCKET).count).toBe(3);
    store.completeMultipartUpload(BUCKET, 'mp', upload.uploadId, { parts: [{ partNumber: 1 }] });
    store.deleteObject(BUCKET, 'nothing-here');
    expect(store.getBucketStatistics(BUCKET)).toEqual({
      count: 4,
      size: 2 + 3 + 4 + 3,
      storageClasses: {
        STANDARD: { count: 3, size: 9, billingSize: 9 },
        STANDARD_IA: { count: 1, size: 3, billingSize: 3 },
      },
    });
    store.deleteObjects(BUCKET, ['a', 'mp']);
    expect(store.getBucketStatistics(BUCKET).storageClasses.STANDARD_IA).toEqual({ count: 0, size: 0, billingSize: 0 });
    expect(store.getBucketStatistics(BUCKET).count).toBe(2);
  });
});
