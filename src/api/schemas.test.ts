import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { bucketAclSchema, putBucketAclBodySchema } from './acl/schemas.ts';
import { putBucketAclBody } from './acl/operations.ts';
import { bucketStatisticsSchema } from './buckets/schemas.ts';
import { bucketCorsSchema, putBucketCorsBodySchema } from './cors/schemas.ts';
import { errorBodySchema } from './errors.ts';
import { completeMultipartUploadBody } from './multipart/operations.ts';
import {
  completeMultipartUploadBodySchema,
  initiateMultipartUploadSchema,
  listMultipartSchema,
  listMultipartUploadsSchema,
} from './multipart/schemas.ts';
import { objectHeadFromResponse, type ObjectHead } from './objects/read.ts';
import { deleteMultipleObjectsBody } from './objects/write.ts';
import {
  deleteMultipleObjectsBodySchema,
  deleteMultipleObjectsResultSchema,
  listObjectsSchema,
  objectHeadersSchema,
} from './objects/schemas.ts';
import { listBucketsSchema } from './service/schemas.ts';
import { extractContract, findSpecDir, isRecord, readRecordedContract, type ContractSchema } from './swagger-contract.ts';

/**
 * Checks our zod wire schemas against the official swagger specs (ref: SPEC), as recorded in
 * swagger-contract.json (see swagger-contract.ts: the specs are not part of the repository). With
 * QS_SPECS_DIR naming a checkout of the specs, the recording itself is compared with a fresh extraction first.
 */

const contract = readRecordedContract();

function at(value: unknown, ...keys: Array<string | number>): unknown {
  let current = value;
  for (const key of keys) {
    if (Array.isArray(current) && typeof key === 'number') current = current[key];
    else if (isRecord(current) && typeof key === 'string') current = current[key];
    else throw new Error(`path ${keys.join('.')} not found`);
  }
  return current;
}

function responseSchema(name: string): ContractSchema {
  const schema = contract.responses[name];
  if (!schema) throw new Error(`no recorded response schema ${name}`);
  return schema;
}

function bodyParameter(name: string): ContractSchema {
  const schema = contract.requests[name];
  if (!schema) throw new Error(`no recorded request body ${name}`);
  return schema;
}

/** Largest enum in the tree: that many samples cover every enum value at least once. */
function enumVariants(schema: ContractSchema, seen = new Set<ContractSchema>()): number {
  const s = schema;
  if (seen.has(s)) return 1;
  seen.add(s);
  let n = s.enum?.length ?? 1;
  for (const child of Object.values(s.properties ?? {})) n = Math.max(n, enumVariants(child, seen));
  if (s.items) n = Math.max(n, enumVariants(s.items, seen));
  return n;
}

/** A document of the swagger shape with every declared property filled, enums rotated by `variant`. */
function sample(schema: ContractSchema, variant: number): unknown {
  const s = schema;
  if (s.enum && s.enum.length > 0) return s.enum[variant % s.enum.length];
  switch (s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(s.properties ?? {})) out[name] = sample(child, variant);
      return out;
    }
    case 'array':
      return s.items ? [sample(s.items, variant)] : [];
    case 'integer':
      return 7;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'string':
      return s.format === 'date-time' ? '2016-08-22T15:03:32.000Z' : 'sample-value';
    default:
      if (s.properties) return sample({ ...s, type: 'object' }, variant);
      throw new Error(`unsupported swagger type ${String(s.type)}`);
  }
}

/** Paths (object keys; array items as index 0) of every `required` property in the swagger tree. */
function requiredPaths(schema: ContractSchema, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const s = schema;
  const out: Array<Array<string | number>> = [];
  for (const name of s.required ?? []) out.push([...prefix, name]);
  for (const [name, child] of Object.entries(s.properties ?? {})) out.push(...requiredPaths(child, [...prefix, name]));
  if (s.items) out.push(...requiredPaths(s.items, [...prefix, 0]));
  return out;
}

function withoutPath(doc: unknown, p: Array<string | number>): unknown {
  const copy: unknown = structuredClone(doc);
  let parent: unknown = copy;
  for (const key of p.slice(0, -1)) parent = at(parent, key);
  const last = p.at(-1);
  if (isRecord(parent) && typeof last === 'string') delete parent[last];
  return copy;
}

/** Every value of `expected` appears unchanged in `actual` (our schema neither dropped nor changed it). */
function missingFrom(actual: unknown, expected: unknown, where = '$'): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [`${where}: expected an array of ${expected.length}`];
    return expected.flatMap((item, i) => missingFrom(actual[i], item, `${where}[${i}]`));
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return [`${where}: expected an object`];
    return Object.entries(expected).flatMap(([k, v]) => (k in actual ? missingFrom(actual[k], v, `${where}.${k}`) : [`${where}.${k}: dropped`]));
  }
  return Object.is(actual, expected) ? [] : [`${where}: ${JSON.stringify(actual)} !== ${JSON.stringify(expected)}`];
}

/** Minimal swagger validation of a body we send: types, enums, required, and no undeclared names. */
function violations(value: unknown, schema: ContractSchema, allowExtra: readonly string[] = [], where = '$'): string[] {
  const s = schema;
  if (s.enum && !s.enum.includes(value)) return [`${where}: ${JSON.stringify(value)} not in enum`];
  switch (s.type) {
    case 'object': {
      if (!isRecord(value)) return [`${where}: not an object`];
      const errors: string[] = [];
      for (const name of s.required ?? []) if (!(name in value)) errors.push(`${where}.${name}: required`);
      for (const [name, v] of Object.entries(value)) {
        const child = s.properties?.[name];
        if (child) errors.push(...violations(v, child, allowExtra, `${where}.${name}`));
        else if (!allowExtra.includes(name)) errors.push(`${where}.${name}: not declared by the swagger`);
      }
      return errors;
    }
    case 'array':
      return Array.isArray(value) ? value.flatMap((v, i) => (s.items ? violations(v, s.items, allowExtra, `${where}[${i}]`) : [])) : [`${where}: not an array`];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${where}: not an integer`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${where}: not a boolean`];
    case 'string':
      return typeof value === 'string' ? [] : [`${where}: not a string`];
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------------------------------

it('the recorded contract covers every case below, and equals the official specs wherever they are available', () => {
  expect(Object.keys(contract.responses).sort()).toEqual(responseCases.map((c) => c.name).sort());
  expect(Object.keys(contract.requests).sort()).toEqual(requestCases.map((c) => c.name).sort());
  expect(Object.keys(contract.objectHeaders.head).length).toBeGreaterThan(10);
  // Inline schemas only: sample/violations below do not follow references.
  expect(JSON.stringify(contract)).not.toContain('$ref');
  // With QS_SPECS_DIR set (findSpecDir) the specs are re-extracted; otherwise the recording is the contract.
  const specDir = findSpecDir();
  expect(specDir === undefined ? contract : extractContract(specDir)).toEqual(contract);
});

it('reads the specs only from the folder QS_SPECS_DIR names, never from outside the repository by itself', () => {
  expect(findSpecDir({})).toBeUndefined();
  expect(findSpecDir({ QS_SPECS_DIR: '' })).toBeUndefined();
  expect(findSpecDir({ QS_SPECS_DIR: import.meta.dirname })).toBeUndefined(); // no definitions.json there
});

interface ResponseCase {
  name: string;
  swagger: () => ContractSchema;
  ours: z.ZodType;
}

const responseCases: ResponseCase[] = [
  { name: 'ListBuckets', swagger: () => responseSchema('ListBuckets'), ours: listBucketsSchema },
  { name: 'ListObjects', swagger: () => responseSchema('ListObjects'), ours: listObjectsSchema },
  { name: 'GetBucketStatistics', swagger: () => responseSchema('GetBucketStatistics'), ours: bucketStatisticsSchema },
  { name: 'GetBucketACL', swagger: () => responseSchema('GetBucketACL'), ours: bucketAclSchema },
  { name: 'GetBucketCORS', swagger: () => responseSchema('GetBucketCORS'), ours: bucketCorsSchema },
  { name: 'DeleteMultipleObjects', swagger: () => responseSchema('DeleteMultipleObjects'), ours: deleteMultipleObjectsResultSchema },
  { name: 'ListMultipartUploads', swagger: () => responseSchema('ListMultipartUploads'), ours: listMultipartUploadsSchema },
  { name: 'InitiateMultipartUpload', swagger: () => responseSchema('InitiateMultipartUpload'), ours: initiateMultipartUploadSchema },
  { name: 'ListMultipart', swagger: () => responseSchema('ListMultipart'), ours: listMultipartSchema },
];

describe.each(responseCases)('response schema $name vs swagger', ({ swagger, ours }) => {
  it('accepts every declared property with its swagger type and keeps it unchanged (every enum value)', () => {
    const spec = swagger();
    const variants = enumVariants(spec);
    for (let v = 0; v < variants; v++) {
      const doc = sample(spec, v);
      const parsed = ours.safeParse(doc);
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(missingFrom(parsed.data, doc)).toEqual([]);
    }
  });

  it('requires what the swagger requires', () => {
    const spec = swagger();
    for (const p of requiredPaths(spec)) {
      expect({ without: p.join('.'), accepted: ours.safeParse(withoutPath(sample(spec, 0), p)).success }).toEqual({ without: p.join('.'), accepted: false });
    }
  });
});

interface RequestCase {
  name: string;
  swagger: () => ContractSchema;
  ours: z.ZodType;
  /** Bodies exactly as our operations build them. */
  produced: () => unknown[];
  /** Names our body may carry beyond the swagger, each documented in the reference. */
  allowExtra?: string[];
}

const requestCases: RequestCase[] = [
  {
    name: 'PutBucketACL',
    swagger: () => bodyParameter('PutBucketACL'),
    ours: putBucketAclBodySchema,
    produced: () => [
      putBucketAclBody([
        { grantee: { type: 'user', id: 'usr-1mvNCzZu' }, permission: 'FULL_CONTROL' },
        { grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' },
      ]),
      putBucketAclBody([]),
    ],
  },
  {
    name: 'PutBucketCORS',
    swagger: () => bodyParameter('PutBucketCORS'),
    ours: putBucketCorsBodySchema,
    produced: () => [
      putBucketCorsBodySchema.parse({
        cors_rules: [{ allowed_origin: 'http://*.example.com', allowed_methods: ['GET', 'PUT'], allowed_headers: ['*'], expose_headers: ['ETag'], max_age_seconds: 400 }],
      }),
    ],
    // ref §9.9: resp_vary is documented by DOCS, not by SPEC.
    allowExtra: ['resp_vary'],
  },
  {
    name: 'DeleteMultipleObjects',
    swagger: () => bodyParameter('DeleteMultipleObjects'),
    ours: deleteMultipleObjectsBodySchema,
    produced: () => [deleteMultipleObjectsBody(['object_1', 'dir/中文.txt']), deleteMultipleObjectsBody(['a'], true)],
  },
  {
    name: 'CompleteMultipartUpload',
    swagger: () => bodyParameter('CompleteMultipartUpload'),
    ours: completeMultipartUploadBodySchema,
    produced: () => [completeMultipartUploadBody([{ partNumber: 2, etag: '"28e2c0c6574a1ef20ac41d16a012a7c1"' }, { partNumber: 0 }])],
  },
];

describe.each(requestCases)('request body $name vs swagger', ({ swagger, ours, produced, allowExtra }) => {
  it('the bodies our operations send are valid swagger documents', () => {
    for (const body of produced()) expect(violations(body, swagger(), allowExtra ?? [])).toEqual([]);
  });

  it('our schema (also used by the emulator to parse requests) accepts swagger-shaped bodies', () => {
    const spec = swagger();
    for (let v = 0; v < enumVariants(spec); v++) {
      const parsed = ours.safeParse(sample(spec, v));
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
    for (const p of requiredPaths(spec)) {
      expect({ without: p.join('.'), accepted: ours.safeParse(withoutPath(sample(spec, 0), p)).success }).toEqual({ without: p.join('.'), accepted: false });
    }
  });
});

// Header contract: every response header the swagger declares for HEAD/GET object must reach the typed
// ObjectHead. `X-QS-MetaData` (type "map") is the x-qs-meta-* family.
const headerReaders: Record<string, (head: ObjectHead) => unknown> = {
  'content-type': (h) => h.contentType,
  'content-length': (h) => h.size,
  'content-range': () => 'read by getObject from the response',
  'last-modified': (h) => h.lastModified?.toISOString(),
  etag: (h) => h.etag,
  'x-qs-encryption-customer-algorithm': (h) => h.encryptionAlgorithm,
  'x-qs-storage-class': (h) => h.storageClass,
  'x-qs-object-type': (h) => h.objectType,
  'x-qs-next-append-position': (h) => h.nextAppendPosition,
  'x-qs-version-id': (h) => h.versionId,
  'x-qs-delete-marker': (h) => h.deleteMarker,
  'x-qs-metadata': (h) => h.metadata.custom.color,
  expires: (h) => h.metadata.standard.expires,
  'cache-control': (h) => h.metadata.standard['cache-control'],
  'content-language': (h) => h.contentLanguage,
  'content-encoding': (h) => h.metadata.standard['content-encoding'],
  'content-disposition': (h) => h.metadata.standard['content-disposition'],
};

interface SwaggerHeader {
  type?: string;
  format?: string;
}

function headerSample(h: SwaggerHeader): string {
  if (h.type === 'integer') return '7';
  if (h.type === 'boolean') return 'true';
  if (h.format === 'date-time-rfc822') return 'Wed, 10 Dec 2014 17:20:31 GMT';
  return 'sample-value';
}

describe.each([
  { name: 'HeadObject', route: ['head'] },
  { name: 'GetObject', route: ['get'] },
])('$name response headers vs swagger', ({ name, route }) => {
  it('every declared header is typed by objectHeadersSchema and surfaces in ObjectHead', () => {
    const declared = contract.objectHeaders[route[0] as 'head' | 'get'];
    if (!isRecord(declared)) throw new Error('no headers');
    const headers = new Headers();
    for (const [headerName, spec] of Object.entries(declared)) {
      const lower = headerName.toLowerCase();
      if (lower === 'x-qs-metadata') headers.set('x-qs-meta-color', 'blue');
      else headers.set(lower, headerSample(isRecord(spec) ? spec : {}));
    }
    const head = objectHeadFromResponse(new Response(null, { headers }), { bucket: 'b-bucket', key: 'k' }, name, route[0]!.toUpperCase());
    const declaredNames = Object.keys(declared).map((n) => n.toLowerCase());
    const notSurfaced = declaredNames.filter((n) => headerReaders[n]?.(head) === undefined);
    expect(notSurfaced).toEqual([]);
    const shapeKeys = Object.keys(objectHeadersSchema.shape);
    const untyped = declaredNames.filter((n) => n !== 'x-qs-metadata' && !shapeKeys.includes(n));
    expect(untyped).toEqual([]);
    expect(head.size).toBe(7);
    expect(head.deleteMarker).toBe(true);
    expect(head.lastModified?.toISOString()).toBe('2014-12-10T17:20:31.000Z');
  });
});

it('error body schema accepts the ref §4 envelope', () => {
  const body = { code: 'object_not_exists', message: 'The object you are accessing does not exist', request_id: 'aa08cf7a43f611e5', url: 'https://docsv4.qingcloud.com/' };
  expect(errorBodySchema.parse(body)).toEqual(body);
  expect(errorBodySchema.safeParse({ message: 'no code' }).success).toBe(false);
});
