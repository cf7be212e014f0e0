import { requestIdOf, type BucketRef, type CallOptions, type QsClient } from '../client.ts';
import { metadataToHeaders } from '../metadata/header-mapping.ts';
import type { ObjectMetadata } from '../metadata/types.ts';
import type { StorageClass } from '../objects/schemas.ts';
import { encodePolicy, signPolicy } from '../signing.ts';
import { sendWithProgress, type TransferProgress } from '../transfer.ts';

/** The placeholder PostObject replaces with the uploaded file's name (ref §7). */
export const FILENAME_PLACEHOLDER = '${filename}';

/** What the server puts in place of `${filename}`: the part after the last '/' or '\' (ref §7). */
export function baseFilename(name: string): string {
  const cut = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  return cut >= 0 ? name.slice(cut + 1) : name;
}

export function expandKeyTemplate(key: string, filename: string): string {
  return key.split(FILENAME_PLACEHOLDER).join(baseFilename(filename));
}

export interface PostObjectInput extends BucketRef {
  /** Object key; may contain `${filename}`; must not start with '/' (ref §7). */
  key: string;
  file: Blob;
  /** Name used for `${filename}` and the form part; defaults to File.name. */
  filename?: string;
  /** Standard headers and custom metadata, sent as form fields (ref §7). */
  metadata?: ObjectMetadata;
  storageClass?: StorageClass;
  onProgress?: (progress: TransferProgress) => void;
}

export interface PostObjectForm {
  /** Every field in send order, `file` excluded (it is always appended last). */
  fields: Array<[string, string]>;
  /** The file part, typed with the object's Content-Type (ref §7: a differing file type fails). */
  file: File;
  /** The policy JSON before base64, present when the form is signed. */
  policy?: Record<string, string>;
}

/**
 * Builds the PostObject form (ref §7): `key`, metadata fields, storage class; then, with credentials,
 * `access_key_id`, `policy` (base64 JSON of every preceding field, exact values, templates
 * unexpanded) and `signature` (HMAC over the policy's base64 text); the file always last — fields
 * after it are discarded by the server and cannot be covered by the policy.
 */
export async function buildPostObjectForm(client: QsClient, input: PostObjectInput): Promise<PostObjectForm> {
  if (input.key.startsWith('/')) throw new RangeError('A PostObject key must not start with "/"');
  const filename = partFilename(input.key, input.filename ?? (input.file instanceof File ? input.file.name : 'blob'));
  const metadataFields = input.metadata ? metadataToHeaders(input.metadata) : {};
  const contentType = metadataFields['content-type'] ?? (input.file.type || 'application/octet-stream');

  const fields: Array<[string, string]> = [['key', input.key]];
  for (const [name, value] of Object.entries(metadataFields)) {
    if (name !== 'content-type') fields.push([name, value]);
  }
  fields.push(['content-type', contentType]);
  if (input.storageClass) fields.push(['x-qs-storage-class', input.storageClass]);

  const file = new File([input.file], filename, { type: contentType });
  const credentials = client.connection.credentials;
  if (!credentials) return { fields, file };

  const policy = Object.fromEntries(fields);
  const policyBase64 = encodePolicy(policy);
  const signature = await signPolicy(policyBase64, credentials.secretAccessKey);
  fields.push(['access_key_id', credentials.accessKeyId], ['policy', policyBase64], ['signature', signature]);
  return { fields, file, policy };
}

/**
 * The name the file part carries. The server reads it only to expand `${filename}` in the key (ref §7), and
 * the browser writes it raw into the part's Content-Disposition except for `"`, CR and LF. A control
 * character there makes the part's header invalid, and a multipart parser refuses the whole form (the
 * emulator's does: a file named `bell\u0007.txt` could not be uploaded). So unless the key expands it, the name
 * is sent with its C0 controls and DEL percent-encoded, as the browser already does for CR and LF.
 */
function partFilename(key: string, filename: string): string {
  if (key.includes('${filename}')) return filename;
  // oxlint-disable-next-line no-control-regex -- matching control characters is the point
  return filename.replace(/[\u0000-\u001f\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export interface PostObjectResult {
  /** Quoted ETag of the stored object ('' if the response did not expose it). */
  etag: string;
  /** The key after `${filename}` expansion, as the server stores it. */
  key: string;
  requestId: string;
}

/** PostObject — POST bucket with multipart/form-data (ref §7) → 201 + ETag, with upload progress. */
export async function postObject(client: QsClient, input: PostObjectInput, options: CallOptions = {}): Promise<PostObjectResult> {
  const form = await buildPostObjectForm(client, input);
  const body = new FormData();
  for (const [name, value] of form.fields) body.append(name, value);
  body.append('file', form.file, form.file.name);
  const response = await sendWithProgress(client, {
    operation: 'PostObject',
    method: 'POST',
    zone: input.zone,
    bucket: input.bucket,
    body,
    // Authentication is the form's policy + signature; a header signature would not cover the body.
    unsigned: true,
    signal: options.signal,
    onProgress: input.onProgress,
  });
  return {
    etag: response.headers.get('etag') ?? '',
    key: expandKeyTemplate(input.key, form.file.name),
    requestId: requestIdOf(response),
  };
}
