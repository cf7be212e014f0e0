/**
 * The access matrix of ref §10 over HTTP: every principal × operation on a private bucket with grants, a
 * public-read bucket and a public-write bucket. "allowed" means a 2xx answer; refused means 403
 * permission_denied.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator.ts';
import type { AclGrant } from '../store/index.ts';
import { md5Base64, OWNER, READER, send, STRANGER, testEmulator, WRITER } from './test-utils.ts';
import type { MockUser } from '../auth/signature.ts';

type Who = MockUser | 'anonymous';
type Op = (em: Emulator, bucket: string, as: Who, uploadId: string, n: number) => Promise<Response>;

const bytes = (s: string) => new TextEncoder().encode(s);
const OPS: Record<string, Op> = {
  HeadBucket: (em, b, as) => send(em, 'HEAD', `/${b}`, { as }),
  ListObjects: (em, b, as) => send(em, 'GET', `/${b}`, { as }),
  GetBucketStatistics: (em, b, as) => send(em, 'GET', `/${b}?stats`, { as }),
  GetBucketAcl: (em, b, as) => send(em, 'GET', `/${b}?acl`, { as }),
  GetBucketCors: (em, b, as) => send(em, 'GET', `/${b}?cors`, { as }),
  GetBucketPolicy: (em, b, as) => send(em, 'GET', `/${b}?policy`, { as }),
  ListMultipartUploads: (em, b, as) => send(em, 'GET', `/${b}?uploads`, { as }),
  GetObject: (em, b, as) => send(em, 'GET', `/${b}/obj`, { as }),
  HeadObject: (em, b, as) => send(em, 'HEAD', `/${b}/obj`, { as }),
  ListMultipart: (em, b, as, id) => send(em, 'GET', `/${b}/upload?upload_id=${id}`, { as }),
  PutObject: (em, b, as, _id, n) => send(em, 'PUT', `/${b}/new-${n}`, { as, body: bytes('x') }),
  AppendObject: (em, b, as, _id, n) => send(em, 'POST', `/${b}/append-${n}?append&position=0`, { as, body: bytes('x') }),
  InitiateMultipartUpload: (em, b, as, _id, n) => send(em, 'POST', `/${b}/init-${n}?uploads`, { as }),
  UploadMultipart: (em, b, as, id, n) => send(em, 'PUT', `/${b}/upload?upload_id=${id}&part_number=${n}`, { as, body: bytes('x') }),
  AbortMultipartUpload: (em, b, as) => send(em, 'DELETE', `/${b}/upload?upload_id=ffffffffffffffffffffffffffffffff`, { as }),
  DeleteObject: (em, b, as, _id, n) => send(em, 'DELETE', `/${b}/missing-${n}`, { as }),
  DeleteMultipleObjects: (em, b, as) => {
    const body = JSON.stringify({ objects: [{ key: 'missing' }] });
    return send(em, 'POST', `/${b}?delete`, { as, body, headers: { 'content-md5': md5Base64(body), 'content-type': 'application/json' } });
  },
  PutBucketAcl: (em, b, as) => send(em, 'PUT', `/${b}?acl`, { as, body: JSON.stringify({ acl: currentAcl(em, b) }), headers: { 'content-type': 'application/json' } }),
  CopyFromObj: (em, b, as, _id, n) => send(em, 'PUT', `/${b}/copy-${n}`, { as, headers: { 'x-qs-copy-source': `/${b}/obj` } }),
};

function currentAcl(em: Emulator, bucket: string): unknown[] {
  return em.store.getBucket(bucket).acl.map((g) => ({ grantee: g.grantee, permission: g.permission }));
}

const READS = ['HeadBucket', 'ListObjects', 'ListMultipartUploads', 'GetObject', 'HeadObject', 'ListMultipart'];
const WRITES = ['PutObject', 'AppendObject', 'InitiateMultipartUpload', 'UploadMultipart', 'AbortMultipartUpload', 'DeleteObject', 'DeleteMultipleObjects'];
const ALL = Object.keys(OPS);

const SCENARIOS: Array<{ name: string; acl: AclGrant[]; allowed: Array<[string, Who, string[]]> }> = [
  {
    name: 'private bucket with user grants',
    acl: [
      { grantee: { type: 'user', id: READER.id }, permission: 'READ' },
      { grantee: { type: 'user', id: WRITER.id }, permission: 'WRITE' },
    ],
    allowed: [
      ['owner', OWNER, ALL],
      ['READ grantee', READER, READS],
      ['WRITE grantee', WRITER, WRITES],
      ['user without grant', STRANGER, []],
      ['anonymous', 'anonymous', []],
    ],
  },
  {
    name: 'public-read bucket (QS_ALL_USERS READ)',
    acl: [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' }],
    allowed: [
      ['anonymous', 'anonymous', ['GetObject', 'HeadObject', 'ListMultipart']],
      // A request WITH credentials is judged as that user (ref §10).
      ['user without grant', STRANGER, []],
    ],
  },
  {
    name: 'public-write bucket (QS_ALL_USERS WRITE)',
    acl: [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'WRITE' }],
    allowed: [
      ['anonymous', 'anonymous', ['PutObject', 'AppendObject', 'InitiateMultipartUpload', 'UploadMultipart', 'AbortMultipartUpload']],
      ['user without grant', STRANGER, []],
    ],
  },
  {
    name: 'FULL_CONTROL grantee',
    acl: [{ grantee: { type: 'user', id: READER.id }, permission: 'FULL_CONTROL' }],
    allowed: [['FULL_CONTROL user', READER, [...READS, ...WRITES, 'CopyFromObj']]],
  },
];

describe('access matrix (ref §10)', () => {
  let em: Emulator;
  let uploadId = '';
  let counter = 0;
  beforeAll(async () => {
    em = await testEmulator();
  });

  SCENARIOS.forEach((scenario, index) => {
    describe(`${scenario.name}`, () => {
      const bucket = `matrix-bucket-${index}`;
      beforeAll(() => {
        em.store.createBucket({ name: bucket, zone: 'pek3a', ownerId: OWNER.id });
        em.store.putObject(bucket, 'obj', { body: bytes('object') });
        uploadId = em.store.initiateMultipartUpload(bucket, 'upload', {}).uploadId;
        em.store.putBucketAcl(bucket, scenario.acl);
      });
      for (const [label, who, allowed] of scenario.allowed) {
        it(`${label}: allowed exactly ${allowed.length === ALL.length ? 'everything' : allowed.join(', ') || 'nothing'}`, async () => {
          const outcome: Record<string, number> = {};
          const expected: Record<string, number> = {};
          for (const op of ALL) {
            const r = await OPS[op]!(em, bucket, who, uploadId, ++counter);
            outcome[op] = r.status < 300 ? 200 : r.status;
            expected[op] = allowed.includes(op) ? 200 : 403;
          }
          expect(outcome).toEqual(expected);
        });
      }
    });
  });
});
