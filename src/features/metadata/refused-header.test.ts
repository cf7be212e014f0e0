import { describe, expect, it } from 'vitest';
import type { ObjectMetadata } from '../../api/metadata/types.ts';
import type { ObjectHead } from '../../api/objects/read.ts';
import { changesFrom, reviewChanges, withRefusedReplaced } from './refused-header.ts';

const metadata: ObjectMetadata = { standard: { 'content-type': 'text/plain' }, custom: { owner: 'ops' } };
const refused = { refused: 'content-encoding' as const, metadata };
const readable: Pick<ObjectHead, 'refused' | 'metadata'> = { metadata };

describe('a Content-Encoding the browser refused', () => {
  it('is removed by a save of the form as loaded: the repair needs no other change', () => {
    expect(withRefusedReplaced(refused, {})).toEqual({ standard: { 'content-encoding': null } });
    expect(reviewChanges(refused, {})).toEqual([{ kind: 'removed', field: 'content-encoding', beforeUnknown: true }]);
  });

  it('is replaced by what the field holds, beside the other edits', () => {
    const edits = { standard: { 'content-encoding': 'gzip', 'cache-control': 'no-cache' } };
    expect(withRefusedReplaced(refused, edits)).toBe(edits);
    expect(reviewChanges(refused, edits)).toEqual([
      { kind: 'changed', field: 'content-encoding', after: 'gzip', beforeUnknown: true },
      { kind: 'added', field: 'cache-control', after: 'no-cache' },
    ]);
  });

  it('changes nothing for an object whose headers could all be read', () => {
    expect(withRefusedReplaced(readable, {})).toEqual({});
    expect(reviewChanges(readable, {})).toEqual([]);
    expect(changesFrom(readable, { ...metadata, standard: { 'content-type': 'text/csv' } })).toEqual([
      { kind: 'changed', field: 'content-type', before: 'text/plain', after: 'text/csv' },
    ]);
  });
});
