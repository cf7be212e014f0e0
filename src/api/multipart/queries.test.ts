import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { createClient } from '../client.ts';
import { DEMO_CONNECTION } from '../connection.ts';
import { completeMultipartUploadBody } from './operations.ts';
import { listPartsInfiniteQuery, nextPartNumberMarker, nextUploadsPageParam } from './queries.ts';
import { listMultipartSchema, listMultipartUploadsSchema } from './schemas.ts';

describe('multipart paging helpers', () => {
  it('continues parts paging only after a full page, from the last part number (part 0 exists, so the first page has no marker)', () => {
    const full = listMultipartSchema.parse({ count: 5, object_parts: [{ part_number: 0 }, { part_number: 3 }] });
    expect(nextPartNumberMarker(full, 2)).toBe(3);
    expect(nextPartNumberMarker(full, 3)).toBeUndefined();
    expect(nextPartNumberMarker(listMultipartSchema.parse({ object_parts: [] }), 2)).toBeUndefined();
    expect(listPartsInfiniteQuery(createClient(DEMO_CONNECTION), { bucket: 'b-bucket', key: 'k', uploadId: 'u' }, 2).initialPageParam).toBeNull();
  });

  it('uses has_more when present and the next key marker otherwise (DOCS example has no has_more)', () => {
    const spec = listMultipartUploadsSchema.parse({ has_more: true, next_key_marker: 'k', next_upload_id_marker: 'u' });
    expect(nextUploadsPageParam(spec)).toEqual({ keyMarker: 'k', uploadIdMarker: 'u' });
    expect(nextUploadsPageParam(listMultipartUploadsSchema.parse({ has_more: false, next_key_marker: 'k' }))).toBeUndefined();
    expect(nextUploadsPageParam(listMultipartUploadsSchema.parse({ next_key_marker: 'k', next_upload_id_marker: 'u' }))).toEqual({ keyMarker: 'k', uploadIdMarker: 'u' });
    expect(nextUploadsPageParam(listMultipartUploadsSchema.parse({}))).toBeUndefined();
  });

  it('builds the Complete body sorted ascending with unquoted etags', () => {
    expect(completeMultipartUploadBody([{ partNumber: 5, etag: '"bb"' }, { partNumber: 0 }, { partNumber: 2, etag: 'aa' }])).toEqual({
      object_parts: [{ part_number: 0 }, { part_number: 2, etag: 'aa' }, { part_number: 5, etag: 'bb' }],
    });
    expect(() => completeMultipartUploadBody([{ partNumber: 10001 }])).toThrow(ZodError);
  });
});
