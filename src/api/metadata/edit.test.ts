import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { MetadataEditError, applyMetadataEdits, diffMetadata, replaceRequestHeaders } from './edit.ts';
import type { CustomMetadataEdit, MetadataEdits } from './edit.ts';
import { STANDARD_METADATA_HEADERS } from '../protocol/headers.ts';
import { metadataFromHeaders } from './header-mapping.ts';
import type { ObjectMetadata } from './types.ts';

const current: ObjectMetadata = {
  standard: {
    'content-type': 'image/png',
    'cache-control': 'max-age=60',
    expires: 'Wed, 10 Dec 2014 17:20:31 GMT',
  },
  custom: { author: 'tom', project: 'apollo', 'x.y_z-1': 'keep' },
};

describe('applyMetadataEdits', () => {
  it('returns the same metadata for no edits, without mutating the input', () => {
    const snapshot = structuredClone(current);
    const merged = applyMetadataEdits(current, {});
    expect(merged).toEqual(current);
    expect(merged).not.toBe(current);
    applyMetadataEdits(current, {
      standard: { 'content-type': null },
      custom: [{ op: 'remove', key: 'author' }],
    });
    expect(current).toEqual(snapshot);
  });

  it('sets, removes and leaves standard headers', () => {
    const merged = applyMetadataEdits(current, {
      standard: { 'cache-control': 'no-cache', expires: null, 'content-disposition': 'attachment', 'content-encoding': undefined },
    });
    expect(merged.standard).toEqual({
      'content-type': 'image/png',
      'cache-control': 'no-cache',
      'content-disposition': 'attachment',
    });
  });

  it('applies custom edits in order, keys case-insensitively', () => {
    const merged = applyMetadataEdits(current, {
      custom: [
        { op: 'set', key: 'Reviewer', value: 'ann' },
        { op: 'remove', key: 'PROJECT' },
        { op: 'rename', from: 'Author', to: 'Owner' },
        { op: 'set', key: 'owner', value: 'TOM' },
      ],
    });
    expect(merged.custom).toEqual({ 'x.y_z-1': 'keep', reviewer: 'ann', owner: 'TOM' });
  });

  it('normalises mixed-case keys of the current metadata', () => {
    const merged = applyMetadataEdits(
      { standard: {}, custom: { Author: 'tom' } },
      { custom: [{ op: 'set', key: 'AUTHOR', value: 'ann' }] },
    );
    expect(merged.custom).toEqual({ author: 'ann' });
  });

  it('treats remove and rename of a missing key as no-ops (bulk edit)', () => {
    const merged = applyMetadataEdits(current, {
      custom: [
        { op: 'remove', key: 'nope' },
        { op: 'rename', from: 'missing', to: 'author' },
      ],
    });
    expect(merged).toEqual(current);
  });

  it('renames onto an existing key by overwriting it, and a case-only rename changes nothing', () => {
    expect(applyMetadataEdits(current, { custom: [{ op: 'rename', from: 'author', to: 'project' }] }).custom).toEqual({
      project: 'tom',
      'x.y_z-1': 'keep',
    });
    expect(applyMetadataEdits(current, { custom: [{ op: 'rename', from: 'author', to: 'AUTHOR' }] }).custom).toEqual(
      current.custom,
    );
  });
});

describe('diffMetadata', () => {
  it('lists additions, changes and removals with standard headers first', () => {
    const after = applyMetadataEdits(current, {
      standard: { 'content-type': 'image/webp', expires: null, 'content-encoding': 'gzip' },
      custom: [
        { op: 'rename', from: 'author', to: 'owner' },
        { op: 'set', key: 'project', value: 'gemini' },
      ],
    });
    expect(diffMetadata(current, after)).toEqual([
      { kind: 'added', field: 'content-encoding', after: 'gzip' },
      { kind: 'changed', field: 'content-type', before: 'image/png', after: 'image/webp' },
      { kind: 'removed', field: 'expires', before: 'Wed, 10 Dec 2014 17:20:31 GMT' },
      { kind: 'removed', field: 'x-qs-meta-author', before: 'tom' },
      { kind: 'added', field: 'x-qs-meta-owner', after: 'tom' },
      { kind: 'changed', field: 'x-qs-meta-project', before: 'apollo', after: 'gemini' },
    ]);
  });

  it('is empty for equal metadata, comparing custom keys case-insensitively', () => {
    expect(diffMetadata(current, structuredClone(current))).toEqual([]);
    expect(diffMetadata({ standard: {}, custom: { Author: 'tom' } }, { standard: {}, custom: { author: 'tom' } })).toEqual(
      [],
    );
  });

  it('treats an empty value as present', () => {
    expect(diffMetadata({ standard: {}, custom: {} }, { standard: {}, custom: { flag: '' } })).toEqual([
      { kind: 'added', field: 'x-qs-meta-flag', after: '' },
    ]);
  });
});

describe('replaceRequestHeaders', () => {
  it('sends the complete merged set, untouched headers included (ref §5.2)', () => {
    const headers = replaceRequestHeaders(current, { custom: [{ op: 'set', key: 'project', value: 'gemini' }] });
    expect(headers).toEqual({
      'content-type': 'image/png',
      'cache-control': 'max-age=60',
      expires: 'Wed, 10 Dec 2014 17:20:31 GMT',
      'x-qs-meta-author': 'tom',
      'x-qs-meta-project': 'gemini',
      'x-qs-meta-x.y_z-1': 'keep',
      'x-qs-metadata-directive': 'REPLACE',
    });
  });

  it('omits removed headers and keys', () => {
    const headers = replaceRequestHeaders(current, {
      standard: { 'cache-control': null },
      custom: [{ op: 'remove', key: 'Author' }],
    });
    expect(Object.keys(headers).sort()).toEqual([
      'content-type',
      'expires',
      'x-qs-meta-project',
      'x-qs-meta-x.y_z-1',
      'x-qs-metadata-directive',
    ]);
  });

  it.each<[string, MetadataEdits, string]>([
    ['an illegal key', { custom: [{ op: 'set', key: 'bad key', value: 'v' }] }, 'key_charset'],
    ['a non-ASCII value', { custom: [{ op: 'set', key: 'note', value: '中文' }] }, 'value_not_printable'],
    ['a rename to an illegal key', { custom: [{ op: 'rename', from: 'author', to: 'a/b' }] }, 'key_charset'],
    ['a total over 2 KB', { custom: [{ op: 'set', key: 'big', value: 'x'.repeat(2030) }] }, 'total_too_large'],
    ['a header value with CR LF', { standard: { 'cache-control': 'a\r\nx-evil: 1' } }, 'standard_not_printable'],
    ['a header value beyond Latin-1', { standard: { 'content-disposition': 'inline; filename=中' } }, 'standard_not_printable'],
    ['a header value with surrounding space', { standard: { 'content-type': ' text/plain' } }, 'value_surrounding_whitespace'],
    ['a custom value with a trailing space', { custom: [{ op: 'set', key: 'note', value: 'tom ' }] }, 'value_surrounding_whitespace'],
    ['a custom value with a leading space', { custom: [{ op: 'set', key: 'note', value: ' tom' }] }, 'value_surrounding_whitespace'],
  ])('refuses %s with the rule id', (_name, edits, rule) => {
    let caught: unknown;
    try {
      replaceRequestHeaders(current, edits);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MetadataEditError);
    expect(caught instanceof MetadataEditError ? caught.violation.rule : undefined).toBe(rule);
  });

  it('does not re-validate untouched stored standard values beyond what HTTP can carry', () => {
    // A Content-Disposition another client stored with raw UTF-8 bytes comes back as Latin-1 code units.
    const stored: ObjectMetadata = { standard: { 'content-disposition': 'attachment; filename="\u00e4\u00b8\u00ad"' }, custom: {} };
    const headers = replaceRequestHeaders(stored, { custom: [{ op: 'set', key: 'a', value: 'b' }] });
    expect(new Headers(headers).get('content-disposition')).toBe('attachment; filename="\u00e4\u00b8\u00ad"');
  });
});

// ---------------------------------------------------------------------------------------------------
// Property: REPLACE carries exactly the merged set. The oracle below is written independently of
// edit.ts: an association list with case-insensitive lookups instead of a lower-cased record.

const KEY_POOL = ['author', 'Author', 'AUTHOR', 'project', 'Project', 'id', 'ID', 'a.b', 'A.B', 'x_y-z', 'X_Y-Z', 'new'];
const arbKey = fc.constantFrom(...KEY_POOL);
// Values as HTTP delivers them: printable ASCII without surrounding whitespace (Headers strips it;
// values with it are refused, see the table above).
const arbValue = fc.string({ unit: 'binary-ascii', maxLength: 12 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'x').trim());
const arbHeaderValue = arbValue;

const arbCurrent: fc.Arbitrary<ObjectMetadata> = fc.record({
  standard: fc.dictionary(fc.constantFrom(...STANDARD_METADATA_HEADERS), arbHeaderValue),
  custom: fc.dictionary(arbKey.map((k) => k.toLowerCase()), arbValue, { maxKeys: 6 }),
});

const arbCustomEdit: fc.Arbitrary<CustomMetadataEdit> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), key: arbKey, value: arbValue }),
  fc.record({ op: fc.constant('remove' as const), key: arbKey }),
  fc.record({ op: fc.constant('rename' as const), from: arbKey, to: arbKey }),
);

const arbEdits: fc.Arbitrary<MetadataEdits> = fc.record(
  {
    standard: fc.dictionary(fc.constantFrom(...STANDARD_METADATA_HEADERS), fc.option(arbHeaderValue, { nil: null })),
    custom: fc.array(arbCustomEdit, { maxLength: 8 }),
  },
  { requiredKeys: [] },
);

function oracleHeaders(m: ObjectMetadata, edits: MetadataEdits): Map<string, string> {
  const entries: Array<[string, string]> = Object.entries(m.custom);
  const find = (key: string) => entries.findIndex(([k]) => k.localeCompare(key, 'en', { sensitivity: 'accent' }) === 0);
  for (const e of edits.custom ?? []) {
    if (e.op === 'set') {
      const i = find(e.key);
      if (i >= 0) entries.splice(i, 1);
      entries.push([e.key, e.value]);
    } else if (e.op === 'remove') {
      const i = find(e.key);
      if (i >= 0) entries.splice(i, 1);
    } else {
      const i = find(e.from);
      const same = e.from.toUpperCase() === e.to.toUpperCase();
      if (i < 0 || same) continue;
      const [, value] = entries[i]!;
      entries.splice(i, 1);
      const j = find(e.to);
      if (j >= 0) entries.splice(j, 1);
      entries.push([e.to, value]);
    }
  }
  const out = new Map<string, string>();
  for (const name of STANDARD_METADATA_HEADERS) {
    const edit = edits.standard?.[name];
    const value = edit === undefined ? m.standard[name] : edit;
    if (value !== undefined && value !== null) out.set(name, value);
  }
  for (const [k, v] of entries) out.set(`x-qs-meta-${k.toLowerCase()}`, v);
  out.set('x-qs-metadata-directive', 'REPLACE');
  return out;
}

function mentionedKeys(edits: MetadataEdits): Set<string> {
  const keys = new Set<string>();
  for (const e of edits.custom ?? []) {
    if (e.op === 'rename') {
      keys.add(e.from.toLowerCase());
      keys.add(e.to.toLowerCase());
    } else keys.add(e.key.toLowerCase());
  }
  return keys;
}

describe('replaceRequestHeaders (property)', () => {
  it('carries exactly the merged set: untouched kept, removed absent, renamed moved, case folded', () => {
    fc.assert(
      fc.property(arbCurrent, arbEdits, (m, edits) => {
        const headers = replaceRequestHeaders(m, edits);
        expect(new Map(Object.entries(headers))).toEqual(oracleHeaders(m, edits));

        // Every header name is lower-case, and the set survives a trip through real Headers.
        for (const name of Object.keys(headers)) expect(name).toBe(name.toLowerCase());
        const sent = metadataFromHeaders(new Headers(headers));
        expect(sent).toEqual(applyMetadataEdits(m, edits));

        // Nothing the edits did not mention is lost or altered.
        const mentioned = mentionedKeys(edits);
        const untouchedCustom = Object.entries(m.custom).filter(([key]) => !mentioned.has(key));
        expect(untouchedCustom.map(([key]) => headers[`x-qs-meta-${key}`])).toEqual(untouchedCustom.map(([, v]) => v));
        const untouchedStandard = STANDARD_METADATA_HEADERS.filter((name) => edits.standard?.[name] === undefined);
        expect(untouchedStandard.map((name) => headers[name])).toEqual(untouchedStandard.map((name) => m.standard[name]));

        // The diff names exactly the headers whose value differs.
        const before = new Map(Object.entries({ ...replaceRequestHeaders(m, {}) }));
        const changedFields = new Set(
          [...new Set([...before.keys(), ...Object.keys(headers)])].filter((k) => before.get(k) !== headers[k]),
        );
        expect(new Set(diffMetadata(m, applyMetadataEdits(m, edits)).map((c) => c.field))).toEqual(changedFields);
      }),
      { numRuns: 400 },
    );
  });
});
