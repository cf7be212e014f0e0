import { describe, expect, it } from 'vitest';
import { QsError } from '../errors.ts';
import { assertAllowed, isAllowed, type AccessPrincipal, type BucketAccess, type BucketOperation } from './acl.ts';

const owner: AccessPrincipal = { kind: 'user', user: { id: 'usr-owner' } };
const reader: AccessPrincipal = { kind: 'user', user: { id: 'usr-reader' } };
const writer: AccessPrincipal = { kind: 'user', user: { id: 'usr-writer' } };
const full: AccessPrincipal = { kind: 'user', user: { id: 'usr-full' } };
const stranger: AccessPrincipal = { kind: 'user', user: { id: 'usr-stranger' } };
const anonymous: AccessPrincipal = { kind: 'anonymous' };

const privateBucket: BucketAccess = {
  ownerId: 'usr-owner',
  acl: [
    { grantee: { type: 'user', id: 'usr-reader' }, permission: 'READ' },
    { grantee: { type: 'user', id: 'usr-writer' }, permission: 'WRITE' },
    { grantee: { type: 'user', id: 'usr-full' }, permission: 'FULL_CONTROL' },
  ],
};
const publicRead: BucketAccess = { ownerId: 'usr-owner', acl: [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' }] };
const publicWrite: BucketAccess = { ownerId: 'usr-owner', acl: [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'WRITE' }] };
const publicFull: BucketAccess = { ownerId: 'usr-owner', acl: [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'FULL_CONTROL' }] };

const ownerOnly: BucketOperation[] = [
  'delete_bucket', 'get_bucket_stats', 'get_bucket_acl', 'put_bucket_acl', 'get_bucket_cors', 'put_bucket_cors',
  'delete_bucket_cors', 'get_bucket_policy', 'put_bucket_policy', 'delete_bucket_policy',
];
const readOps: BucketOperation[] = ['head_bucket', 'list_objects', 'list_multipart_uploads', 'get_object', 'head_object', 'list_multipart', 'copy_source'];
const writeOps: BucketOperation[] = [
  'put_object', 'post_object', 'append_object', 'initiate_multipart_upload', 'upload_multipart',
  'complete_multipart_upload', 'abort_multipart_upload', 'delete_object', 'delete_multiple_objects', 'copy_destination',
];

describe('ACL decisions (ref §10)', () => {
  it('lets the owner do everything', () => {
    for (const op of [...ownerOnly, ...readOps, ...writeOps]) expect(isAllowed(op, owner, privateBucket)).toBe(true);
  });

  it('keeps owner-only APIs for the owner even with FULL_CONTROL grants', () => {
    for (const op of ownerOnly) {
      expect(isAllowed(op, full, privateBucket)).toBe(false);
      expect(isAllowed(op, anonymous, publicFull)).toBe(false);
    }
  });

  it('maps READ, WRITE and FULL_CONTROL grants to the read and write operations', () => {
    for (const op of readOps) {
      expect(isAllowed(op, reader, privateBucket)).toBe(true);
      expect(isAllowed(op, writer, privateBucket)).toBe(false);
      expect(isAllowed(op, full, privateBucket)).toBe(true);
    }
    for (const op of writeOps) {
      expect(isAllowed(op, reader, privateBucket)).toBe(false);
      expect(isAllowed(op, writer, privateBucket)).toBe(true);
      expect(isAllowed(op, full, privateBucket)).toBe(true);
    }
  });

  it('refuses users without grants and anonymous callers on a private bucket', () => {
    for (const op of [...readOps, ...writeOps]) {
      expect(isAllowed(op, stranger, privateBucket)).toBe(false);
      expect(isAllowed(op, anonymous, privateBucket)).toBe(false);
    }
  });

  it('lets anonymous callers read objects of a public-read bucket but never list it', () => {
    expect(isAllowed('get_object', anonymous, publicRead)).toBe(true);
    expect(isAllowed('head_object', anonymous, publicRead)).toBe(true);
    expect(isAllowed('list_multipart', anonymous, publicRead)).toBe(true);
    expect(isAllowed('list_objects', anonymous, publicRead)).toBe(false);
    expect(isAllowed('list_multipart_uploads', anonymous, publicRead)).toBe(false);
    expect(isAllowed('head_bucket', anonymous, publicRead)).toBe(false);
    expect(isAllowed('put_object', anonymous, publicRead)).toBe(false);
  });

  it('lets anonymous callers write a public-write bucket but never delete', () => {
    expect(isAllowed('put_object', anonymous, publicWrite)).toBe(true);
    expect(isAllowed('post_object', anonymous, publicWrite)).toBe(true);
    expect(isAllowed('upload_multipart', anonymous, publicWrite)).toBe(true);
    expect(isAllowed('delete_object', anonymous, publicWrite)).toBe(false);
    expect(isAllowed('delete_multiple_objects', anonymous, publicFull)).toBe(false);
    expect(isAllowed('get_object', anonymous, publicWrite)).toBe(false);
  });

  it('judges a request with credentials as that user, even on a public bucket', () => {
    expect(isAllowed('get_object', stranger, publicRead)).toBe(false);
    expect(isAllowed('put_object', stranger, publicWrite)).toBe(false);
  });

  it('throws permission_denied (403)', () => {
    let caught: unknown;
    try {
      assertAllowed('get_object', anonymous, privateBucket);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(QsError);
    expect(caught).toMatchObject({ code: 'permission_denied', status: 403 });
    expect(() => assertAllowed('get_object', reader, privateBucket)).not.toThrow();
  });
});
