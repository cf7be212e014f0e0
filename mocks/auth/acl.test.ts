import { describe, expect, it } from 'vitest';
import { QsError } from '../errors.ts';
import { assertAllowed, evaluatePolicy, isAllowed, type AccessPrincipal, type BucketAccess, type BucketOperation } from './acl.ts';

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

describe('bucket policy evaluation (ref §9.8)', () => {
  const withPolicy = (statement: unknown[], acl: BucketAccess['acl'] = []): BucketAccess => ({ name: 'pol-bucket', ownerId: 'usr-owner', acl, policy: { statement } });

  it('lets a policy allow anonymous ListObjects, which the ACL never does', () => {
    const bucket = withPolicy([{ id: 's1', user: '*', action: 'list_objects', effect: 'allow', resource: 'pol-bucket' }]);
    expect(isAllowed('list_objects', anonymous, bucket)).toBe(true);
    expect(isAllowed('list_objects', anonymous, { ...bucket, policy: null })).toBe(false);
  });

  it('matches object resources by <bucket>/<key> glob and users by id', () => {
    const bucket = withPolicy([{ id: 's1', user: ['usr-stranger'], action: ['get_object', 'head_object'], effect: 'allow', resource: ['pol-bucket/public/*'] }]);
    expect(isAllowed('get_object', stranger, bucket, { key: 'public/a.txt' })).toBe(true);
    expect(isAllowed('head_object', stranger, bucket, { key: 'public/a.txt' })).toBe(true);
    expect(isAllowed('get_object', stranger, bucket, { key: 'private/a.txt' })).toBe(false);
    expect(isAllowed('get_object', anonymous, bucket, { key: 'public/a.txt' })).toBe(false);
    expect(isAllowed('put_object', stranger, bucket, { key: 'public/a.txt' })).toBe(false);
  });

  it('lets the first matching statement win; deny overrides an ACL grant but never the owner', () => {
    const bucket = withPolicy(
      [
        { id: 'deny', user: '*', action: 'get_object', effect: 'deny', resource: 'pol-bucket/secret/*' },
        { id: 'allow', user: '*', action: 'get_object', effect: 'allow', resource: 'pol-bucket/*' },
      ],
      [{ grantee: { type: 'user', id: 'usr-reader' }, permission: 'READ' }],
    );
    expect(evaluatePolicy('get_object', reader, bucket, { key: 'secret/x' })).toBe('deny');
    expect(isAllowed('get_object', reader, bucket, { key: 'secret/x' })).toBe(false);
    expect(isAllowed('get_object', anonymous, bucket, { key: 'open/x' })).toBe(true);
    expect(isAllowed('get_object', owner, bucket, { key: 'secret/x' })).toBe(true);
  });

  it('accepts the SPEC spelling of multipart actions and "*" actions', () => {
    const bucket = withPolicy([{ id: 's', user: '*', action: ['upload_multipart', 'initiate_multipart_upload'], effect: 'allow', resource: 'pol-bucket/*' }]);
    expect(isAllowed('upload_multipart', anonymous, bucket, { key: 'k' })).toBe(true);
    expect(isAllowed('initiate_multipart_upload', anonymous, bucket, { key: 'k' })).toBe(true);
    const star = withPolicy([{ id: 's', user: '*', action: '*', effect: 'allow', resource: 'pol-bucket/*' }]);
    expect(isAllowed('put_object', anonymous, star, { key: 'k' })).toBe(true);
  });

  it('never lets anonymous callers delete, and never opens owner-only APIs', () => {
    const bucket = withPolicy([{ id: 's', user: '*', action: '*', effect: 'allow' }]);
    expect(isAllowed('delete_object', anonymous, bucket, { key: 'k' })).toBe(false);
    expect(isAllowed('delete_object', stranger, bucket, { key: 'k' })).toBe(true);
    expect(isAllowed('put_bucket_acl', stranger, bucket)).toBe(false);
  });

  it('evaluates Referer conditions and skips statements it cannot evaluate', () => {
    const bucket = withPolicy([
      { id: 'ip', user: '*', action: 'get_object', effect: 'allow', resource: 'pol-bucket/*', condition: { ip_address: { source_ip: ['0.0.0.0/0'] } } },
      { id: 'ref', user: '*', action: 'get_object', effect: 'allow', resource: 'pol-bucket/*', condition: { string_like: { Referer: ['*.example.com/*'] } } },
      { id: 'noref', user: '*', action: 'head_object', effect: 'deny', resource: 'pol-bucket/*', condition: { is_null: { Referer: true } } },
    ], [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' }]);
    expect(isAllowed('get_object', anonymous, bucket, { key: 'k', referer: 'https://www.example.com/page' })).toBe(true);
    expect(isAllowed('get_object', stranger, bucket, { key: 'k', referer: 'https://evil.test/' })).toBe(false);
    expect(isAllowed('head_object', anonymous, bucket, { key: 'k', referer: null })).toBe(false);
    expect(isAllowed('head_object', anonymous, bucket, { key: 'k', referer: 'https://x.test/' })).toBe(true);
  });

  it('ignores malformed statements and policies', () => {
    expect(evaluatePolicy('get_object', anonymous, withPolicy([{ effect: 'allow' }]), { key: 'k' })).toBeUndefined();
    expect(evaluatePolicy('get_object', anonymous, { ...privateBucket, name: 'x', policy: { statement: 'nope' } })).toBeUndefined();
  });
});
