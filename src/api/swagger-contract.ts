/**
 * The wire contract our zod schemas are checked against (src/api/schemas.test.ts): for each response and
 * request body we parse or send, and for the HEAD/GET object headers, the facts the official QingStor
 * swagger specs (qingstor-api-specs, Apache-2.0) state: property names, types, formats, enums and
 * `required`, with every `$ref` resolved. They are recorded in swagger-contract.json, in this folder, and
 * that recording is all the check reads: the specs themselves are not part of the repository.
 *
 * Regenerate after a spec change (and review the diff), from a checkout of the official specs:
 *   npm run contract:record -- <folder holding the official swagger JSON files>
 * With QS_SPECS_DIR set to such a folder, the test also re-extracts the contract and compares it with the
 * recording (findSpecDir); nothing outside the repository is read unless that variable names it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ContractSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, ContractSchema>;
  items?: ContractSchema;
  required?: string[];
}

export interface ContractHeader {
  type?: string;
  format?: string;
}

export interface SwaggerContract {
  /** 200 response bodies, by operation name. */
  responses: Record<string, ContractSchema>;
  /** Request bodies (the `in: body` parameter), by operation name. */
  requests: Record<string, ContractSchema>;
  /** 200 response headers of HeadObject (`head`) and GetObject (`get`). */
  objectHeaders: Record<'head' | 'get', Record<string, ContractHeader>>;
}

/** Where each recorded schema lives in the specs: file, then the route inside it. */
const RESPONSES: Record<string, [string, ...string[]]> = {
  ListBuckets: ['service.json', 'get'],
  ListObjects: ['bucket.json', 'get'],
  GetBucketStatistics: ['bucket_stats.json', 'get'],
  GetBucketACL: ['bucket_acl.json', 'get'],
  GetBucketCORS: ['bucket_cors.json', 'get'],
  DeleteMultipleObjects: ['bucket_delete_multiple_objects.json', 'post'],
  ListMultipartUploads: ['bucket_uploads.json', 'get'],
  InitiateMultipartUpload: ['object_multipart.json', 'uploads', 'post'],
  ListMultipart: ['object_multipart.json', 'upload_id', 'get'],
};

const REQUESTS: Record<string, [string, ...string[]]> = {
  PutBucketACL: ['bucket_acl.json', 'put'],
  PutBucketCORS: ['bucket_cors.json', 'put'],
  DeleteMultipleObjects: ['bucket_delete_multiple_objects.json', 'post'],
  CompleteMultipartUpload: ['object_multipart.json', 'upload_id', 'post'],
};

export const CONTRACT_FILE = path.join(import.meta.dirname, 'swagger-contract.json');

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function at(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (!isRecord(current) || !(key in current)) throw new Error(`swagger path ${keys.join('.')} not found`);
    current = current[key];
  }
  return current;
}

/** Reads the specs folder and records the contract. */
export function extractContract(specDir: string): SwaggerContract {
  const files = new Map<string, unknown>();
  const spec = (name: string): unknown => {
    if (!files.has(name)) files.set(name, JSON.parse(readFileSync(path.join(specDir, name), 'utf8')));
    return files.get(name);
  };

  const inline = (value: unknown, depth = 0): ContractSchema => {
    if (depth > 20) throw new Error('swagger schema nests too deeply (a $ref cycle?)');
    if (!isRecord(value)) throw new Error('not a swagger schema object');
    if (typeof value.$ref === 'string') {
      const match = /^#\/definitions\/(.+)$/.exec(value.$ref);
      if (!match?.[1]) throw new Error(`unsupported $ref ${value.$ref}`);
      return inline(at(spec('definitions.json'), [match[1]]), depth + 1);
    }
    const out: ContractSchema = {};
    if (typeof value.type === 'string') out.type = value.type;
    if (typeof value.format === 'string') out.format = value.format;
    if (Array.isArray(value.enum)) out.enum = [...(value.enum as unknown[])];
    if (isRecord(value.properties)) {
      out.properties = Object.fromEntries(Object.entries(value.properties).map(([name, child]) => [name, inline(child, depth + 1)]));
    }
    if (value.items !== undefined) out.items = inline(value.items, depth + 1);
    if (Array.isArray(value.required)) out.required = (value.required as unknown[]).filter((n): n is string => typeof n === 'string');
    return out;
  };

  const responses = Object.fromEntries(
    Object.entries(RESPONSES).map(([name, [file, ...route]]) => [name, inline(at(spec(file), [...route, 'responses', '200', 'schema']))]),
  );
  const requests = Object.fromEntries(
    Object.entries(REQUESTS).map(([name, [file, ...route]]) => {
      const params = at(spec(file), [...route, 'parameters']);
      const body = Array.isArray(params) ? params.find((p) => isRecord(p) && p.in === 'body') : undefined;
      if (!isRecord(body)) throw new Error(`${name}: no body parameter`);
      return [name, inline(body.schema)];
    }),
  );
  const headers = (method: 'head' | 'get'): Record<string, ContractHeader> => {
    const declared = at(spec('object.json'), [method, 'responses', '200', 'headers']);
    if (!isRecord(declared)) throw new Error(`object.json ${method}: no headers`);
    return Object.fromEntries(
      Object.entries(declared).map(([name, h]) => [
        name,
        isRecord(h) ? { ...(typeof h.type === 'string' ? { type: h.type } : {}), ...(typeof h.format === 'string' ? { format: h.format } : {}) } : {},
      ]),
    );
  };
  return { responses, requests, objectHeaders: { head: headers('head'), get: headers('get') } };
}

export function readRecordedContract(): SwaggerContract {
  return JSON.parse(readFileSync(CONTRACT_FILE, 'utf8')) as SwaggerContract;
}

/** The specs folder named by QS_SPECS_DIR, if it holds the specs; otherwise undefined (the recording is used). */
export function findSpecDir(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const dir = env.QS_SPECS_DIR;
  return dir && existsSync(path.join(dir, 'definitions.json')) ? dir : undefined;
}

if (import.meta.main) {
  const dir = process.argv[2] ?? findSpecDir();
  if (!dir || !existsSync(path.join(dir, 'definitions.json'))) {
    console.error('usage: npm run contract:record -- <qingstor-api-specs folder>');
    process.exit(2);
  }
  writeFileSync(CONTRACT_FILE, `${JSON.stringify(extractContract(dir), null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), CONTRACT_FILE)} from ${dir}\n`);
}
