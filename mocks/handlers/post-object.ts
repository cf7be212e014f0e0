/**
 * PostObject, the HTML-form upload (ref §7): `POST /` on the bucket (path style `POST /<bucket>`) with
 * multipart/form-data. Only the fields before `file` count (fields after it are discarded and cannot be
 * covered by the policy); `${filename}` in `key` becomes the uploaded file's base name; the policy and
 * signature are checked by authenticatePostForm; metadata fields are stored like PutObject headers.
 */
import { authenticatePostForm } from '../auth/signature.ts';
import { QsError } from '../errors.ts';
import { emptyResponse, headerSafe } from '../http/response.ts';
import { quoteEtag } from '../../src/api/protocol/etag.ts';
import type { PostForm } from '../http/post-form.ts';
import { assertValidKey, collectPayload, requireBucket, storageClassOf, validatedMetadata, type RequestContext } from './context.ts';

/** The default PostFormReader (mocks/http/post-form.ts): the whole form through `request.formData()`. */
export async function readWholeForm(request: Request): Promise<PostForm> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new QsError('invalid_request', 'PostObject needs a multipart/form-data body.');
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new QsError('invalid_request', 'The multipart/form-data body could not be parsed.');
  }
  const fields: Array<[string, string]> = [];
  for (const [name, value] of form.entries()) {
    if (name.toLowerCase() === 'file') {
      // A `file` field sent as plain text still carries the content (e.g. curl -F file=text).
      const file = typeof value === 'string' ? new File([value], '') : value;
      return {
        fields,
        file: {
          name: file.name,
          type: file.type,
          chunks: async function* () {
            yield new Uint8Array(await file.arrayBuffer());
          },
        },
      };
    }
    if (typeof value === 'string') fields.push([name, value]);
  }
  throw new QsError('invalid_request', 'The form has no file field.');
}

function field(fields: ReadonlyArray<[string, string]>, name: string): string | undefined {
  return fields.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** ref §7: `${filename}` is what follows the last `/` or `\` of the uploaded file's name. */
export function expandFilename(keyTemplate: string, fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  return keyTemplate.split('${filename}').join(base);
}

/** `ctx.principal` is ignored: the form's own access_key_id/policy/signature authenticate it (ref §7). */
export async function postObject(ctx: RequestContext, bucket: string): Promise<Response> {
  const { fields, file } = await (ctx.options.postFormReader ?? readWholeForm)(ctx.request);
  const principal = await authenticatePostForm(fields, {
    findUser: (accessKeyId) => ctx.options.users.find((u) => u.accessKeyId === accessKeyId),
    ...(ctx.address.bucketInHost !== undefined ? { bucketInHost: ctx.address.bucketInHost } : {}),
    now: ctx.now,
  });
  const authed: RequestContext = { ...ctx, principal };
  const keyTemplate = field(fields, 'key');
  const key = keyTemplate === undefined ? undefined : expandFilename(keyTemplate, file.name);
  requireBucket(authed, bucket, 'post_object', key);

  if (key === undefined || key === '') throw new QsError('invalid_request', 'The form has no key field.');
  if (key.startsWith('/')) throw new QsError('invalid_object_name', 'The key field must not start with "/".');
  assertValidKey(key);
  const storageClass = storageClassOf(field(fields, 'x-qs-storage-class'));

  // Metadata fields (ref §7): the five standard headers and x-qs-meta-*; `content-type` falls back to the
  // file part's own type. If both are given and differ, the request fails (ref §7).
  const metadata = validatedMetadata(fields);
  const partType = file.type;
  const fieldType = metadata.standard['content-type'];
  const partIsTyped = partType !== '' && partType.toLowerCase() !== 'application/octet-stream';
  if (fieldType !== undefined && partIsTyped && fieldType.toLowerCase() !== partType.toLowerCase()) {
    throw new QsError('invalid_argument', `The content-type field (${fieldType}) differs from the file's type (${partType}).`);
  }
  if (fieldType === undefined && partType !== '') metadata.standard['content-type'] = headerSafe(partType, 'content-type');

  // ref §7: 302 to `<redirect>?status=201&code=created&message=Object+created&request_id=<id>`. Checked before
  // the write so that an unusable redirect refuses the upload instead of answering 400 after storing it.
  const redirect = field(fields, 'redirect');
  const params = `status=201&code=created&message=Object+created&request_id=${ctx.requestId}`;
  const location = redirect === undefined || redirect === '' ? undefined : headerSafe(`${redirect}${redirect.includes('?') ? '&' : '?'}${params}`, 'redirect');

  const payload = await collectPayload(ctx, file.chunks());
  const object = ctx.store.putObject(bucket, key, { ...payload, metadata, ...(storageClass ? { storageClass } : {}) });
  const etag: Record<string, string> = object.etag === null ? {} : { etag: quoteEtag(object.etag) };
  return location === undefined ? emptyResponse(201, etag) : emptyResponse(302, { ...etag, location });
}
