/**
 * Metadata keys are data. `__proto__`, `constructor`, `toString` and `hasOwnProperty` are legal keys
 * (A-Za-z0-9-_.); each must survive the editor model, the diff, the REPLACE header set and a save
 * against the emulator exactly like any other key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { createClient } from '../../api/client.ts';
import { DEMO_CREDENTIALS, type Connection } from '../../api/connection.ts';
import { applyMetadataEdits, diffMetadata, replaceRequestHeaders } from '../../api/metadata/edit.ts';
import { metadataFromEntries } from '../../api/metadata/header-mapping.ts';
import type { ObjectMetadata } from '../../api/metadata/types.ts';
import { headObject } from '../../api/objects/read.ts';
import { putObject } from '../../api/objects/write.ts';
import { editsBetween, editsFromValues, newRow, valuesFromMetadata } from '../../components/metadata-form/form-model.ts';
import { saveMetadataEdits } from '../../api/metadata/save.ts';

const KEYS = ['__proto__', 'constructor', 'tostring', 'hasownproperty', 'valueof'];

const { server } = await setupEmulatorServer({ seed: 'demo' });
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());
const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const client = createClient(connection);

describe.each(KEYS)('the key %s', (key) => {
  it('is added by the editor, shows in the diff, and goes out in the REPLACE header set', () => {
    const loaded: ObjectMetadata = { standard: { 'content-type': 'text/plain' }, custom: { a: '1' } };
    const values = valuesFromMetadata(loaded);
    values.rows.push({ ...newRow(), key, text: 'v' });
    const edits = editsFromValues(loaded, values);
    const after = applyMetadataEdits(loaded, edits);
    expect(Object.hasOwn(after.custom, key)).toBe(true);
    expect(Object.getPrototypeOf(after.custom)).toBe(Object.prototype);
    expect(diffMetadata(loaded, after)).toEqual([{ kind: 'added', field: `x-qs-meta-${key}`, after: 'v' }]);
    const headers = replaceRequestHeaders(loaded, edits);
    expect(headers[`x-qs-meta-${key}`]).toBe('v');
    expect(Object.hasOwn(metadataFromEntries(Object.entries(headers)).custom, key)).toBe(true);
  });

  it('is removed and restored by undo (editsBetween)', () => {
    const withKey = metadataFromEntries([['x-qs-meta-' + key, 'v'], ['content-type', 'text/plain']]);
    const without: ObjectMetadata = { standard: { 'content-type': 'text/plain' }, custom: {} };
    expect(applyMetadataEdits(withKey, editsBetween(withKey, without))).toEqual(without);
    expect(Object.hasOwn(applyMetadataEdits(without, editsBetween(without, withKey)).custom, key)).toBe(true);
  });

  it('round-trips through a save against the emulator', async () => {
    const ref = { zone: 'pek3a', bucket: 'demo-documents', key: `proto/${key}-${Date.now()}.txt` };
    await putObject(client, { ...ref, body: 'x', metadata: { standard: { 'content-type': 'text/plain' }, custom: {} } });
    const base = await headObject(client, ref);
    const result = await saveMetadataEdits(client, { ref, base, edits: { custom: [{ op: 'set', key, value: 'kept' }] }, visibility: { kind: 'all', reason: 'demo' } });
    expect(result.kind).toBe('saved');
    const after = await headObject(client, ref);
    expect(Object.hasOwn(after.metadata.custom, key) && after.metadata.custom[key]).toBe('kept');
  });
});
