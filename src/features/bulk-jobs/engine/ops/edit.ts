/**
 * Metadata edits and their undo, one object at a time: one HEAD, the verdict, the "about to write"
 * record with the version read (its full metadata, for undo), then the guarded write (a copy onto itself
 * conditional on that version's Last-Modified), then the outcome. What the copies wrote is checked from
 * the listing, a batch of objects at a time (verify.ts), not by one read-back per object.
 *
 * Exactly once. A write whose answer was lost (a reload, a dropped connection) leaves its "about to
 * write" record. The next attempt reads the object again and decides from what it finds:
 * - still the version recorded: the write never landed; it is sent, with the same condition (if the lost
 *   one lands after all, one of the two fails its precondition: the copy moved Last-Modified on);
 * - the version recorded with exactly the planned metadata on top (same body, same ETag): it landed;
 *   the object is counted changed, nothing is sent;
 * - anything else: someone else wrote it; it is reported and left as they wrote it.
 */
import type { ObjectRef } from '../../../../api/client.ts';
import { applyMetadataEdits, diffMetadata, MetadataEditError, replaceRequestHeaders, type MetadataEdits } from '../../../../api/metadata/edit.ts';
import type { ObjectMetadata } from '../../../../api/metadata/types.ts';
import { headObjectReadable, type ObjectHead } from '../../../../api/objects/read.ts';
import { parseHttpDate } from '../../../../api/protocol/http-date.ts';
import { editsBetween } from '../../../../components/metadata-form/form-model.ts';
import type { SourceEntry } from '../sources.ts';
import type { ItemRecord, StoredVersion } from '../types.ts';
import { failure, storedAfter, storedVersion, type Operation, type UnitContext, type UnitResult } from './unit.ts';
import { latestServerSecond, WriteVerifier, type VerifyTarget } from './verify.ts';

/** REPLACE without a Content-Type stores application/octet-stream: compare what the server holds. */
function withStoredDefaults(m: ObjectMetadata): ObjectMetadata {
  return m.standard['content-type'] === undefined ? { ...m, standard: { ...m.standard, 'content-type': 'application/octet-stream' } } : m;
}

export function sameMetadata(a: ObjectMetadata, b: ObjectMetadata): boolean {
  return diffMetadata(withStoredDefaults(a), withStoredDefaults(b)).length === 0;
}

/** The edit's write is still the object's last (no Last-Modified recorded: the other checks decide alone). */
function sameInstant(recorded: string | undefined, read: string | undefined): boolean {
  if (recorded === undefined) return true;
  const a = parseHttpDate(recorded);
  const b = read === undefined ? null : parseHttpDate(read);
  return a !== null && b !== null && a.getTime() === b.getTime();
}

/** `head` is the version recorded in `before` (nothing written since). */
export function isVersion(before: StoredVersion, head: ObjectHead): boolean {
  return before.etag === head.etag && before.lastModified === head.lastModifiedRaw && before.size === head.size && diffMetadata(before.metadata, head.metadata).length === 0;
}

/** `head` is `before`'s body holding exactly `planned`, written after it. */
function holdsPlanned(before: StoredVersion, planned: ObjectMetadata, head: ObjectHead): boolean {
  return head.size === before.size && head.etag === before.etag && head.lastModifiedRaw !== before.lastModified && sameMetadata(planned, head.metadata);
}

type Plan =
  | { kind: 'write'; edits: MetadataEdits; planned: ObjectMetadata }
  | { kind: 'settle'; fields: Partial<ItemRecord> };

interface EditFlavour {
  /** What to do with the object as read (`record`: the undo's record of the original job). */
  plan(head: ObjectHead, entry: SourceEntry, context: UnitContext): Plan;
  /** The metadata a landed write leaves, from the version it was planned on. */
  planned(before: StoredVersion, entry: SourceEntry, context: UnitContext): ObjectMetadata | undefined;
}

function verdict(head: ObjectHead, edits: MetadataEdits, context: UnitContext): Plan {
  const block = context.metadata.block(context.client, context.visibility, head);
  if (block !== null) return { kind: 'settle', fields: { state: 'skipped', code: block } };
  const planned = applyMetadataEdits(head.metadata, edits);
  if (diffMetadata(head.metadata, planned).length === 0) return { kind: 'settle', fields: { state: 'unchanged' } };
  try {
    replaceRequestHeaders(head.metadata, edits);
  } catch (error) {
    if (error instanceof MetadataEditError) {
      const { code, rule, message, bytes, limit } = error.violation;
      return { kind: 'settle', fields: { state: 'skipped', code, message, rule: { rule, ...(bytes !== undefined ? { bytes } : {}), ...(limit !== undefined ? { limit } : {}) } } };
    }
    throw error;
  }
  return { kind: 'write', edits, planned };
}

const editFlavour = (edits: MetadataEdits): EditFlavour => ({
  plan: (head, _entry, context) => verdict(head, edits, context),
  planned: (before) => applyMetadataEdits(before.metadata, edits),
});

/** Undo: back to the record's `before`, only where the object is still what the edit left. */
const undoFlavour: EditFlavour = {
  plan(head, entry, context) {
    const original = entry.record;
    const originalEdits = context.original?.operation.kind === 'edit' ? context.original.operation.edits : undefined;
    if (!original?.before || !originalEdits) return { kind: 'settle', fields: { state: 'skipped', code: 'nothing_to_undo' } };
    const before = original.before;
    if (isVersion(before, head) || (head.etag === before.etag && head.size === before.size && sameMetadata(before.metadata, head.metadata))) {
      return { kind: 'settle', fields: { state: 'unchanged' } };
    }
    const left = applyMetadataEdits(before.metadata, originalEdits);
    const untouched = head.etag === before.etag && head.size === before.size && sameMetadata(left, head.metadata) && sameInstant(original.after?.lastModified, head.lastModifiedRaw);
    if (!untouched) return { kind: 'settle', fields: { state: 'skipped', code: 'changed_since' } };
    return verdict(head, editsBetween(head.metadata, before.metadata), context);
  },
  planned: (_before, entry) => entry.record?.before?.metadata,
};

function ref(context: UnitContext, key: string): ObjectRef & { zone: string } {
  return { zone: context.job.zone, bucket: context.job.bucket, key };
}

async function runOne(flavour: EditFlavour, entry: SourceEntry, previous: ItemRecord | undefined, context: UnitContext, verifier: WriteVerifier): Promise<UnitResult> {
  const { key } = entry;
  const base = { job: context.job.id, key };
  let head: ObjectHead;
  try {
    head = await headObjectReadable(context.client, ref(context, key));
  } catch (error) {
    // The object's "about to write" record (if any) and its before-image stay with the failure.
    return failure(error, context, (fields) => [{ ...base, ...(previous?.before ? { before: previous.before } : {}), ...fields, state: fields.state ?? 'failed' }]);
  }
  const started = Date.now();
  let plan: Plan;
  const retrying = previous?.state === 'intent' || (previous?.state === 'failed' && previous.uncertain === true);
  const pending = retrying ? previous.before : undefined;
  if (pending && !isVersion(pending, head)) {
    // A write of an earlier attempt may have landed: look before writing again.
    const planned = flavour.planned(pending, entry, context);
    const landed = planned !== undefined && holdsPlanned(pending, planned, head);
    return {
      kind: 'settled',
      records: [landed ? { ...base, state: 'changed', before: pending, after: storedAfter(head) } : { ...base, state: 'skipped', code: 'changed_since', before: pending }],
      outcome: { kind: 'other' },
    };
  }
  try {
    plan = flavour.plan(head, entry, context);
  } catch (error) {
    return failure(error, context, (fields) => [{ ...base, ...fields, state: fields.state ?? 'failed' }]);
  }
  if (plan.kind === 'settle') return { kind: 'settled', records: [{ ...base, state: 'skipped', ...plan.fields }], outcome: { kind: 'ok', latencyMs: Date.now() - started } };
  if (context.stopping()) return { kind: 'abandoned' };
  const before = storedVersion(head);
  await context.intend([{ ...base, state: 'intent', before }]);
  try {
    const result = await context.metadata.write(context.client, { ...ref(context, key), fresh: head, edits: plan.edits, visibility: context.visibility });
    switch (result.kind) {
      case 'written': {
        const etag = result.etag !== '' ? result.etag : head.etag;
        const record: ItemRecord = { ...base, state: 'changed', before, after: etag !== undefined ? { etag } : {}, requestId: result.requestId };
        // What landed is checked later, with the other objects written about now (verify.ts).
        verifier.add(verifyTarget(context), { record, sent: result.sent, size: head.size, etag, latestSecond: latestServerSecond(head, Date.now()) });
        return { kind: 'settled', records: [record], outcome: { kind: 'ok' } };
      }
      case 'blocked':
        return { kind: 'settled', records: [{ ...base, state: 'skipped', code: result.block }], outcome: { kind: 'other' } };
      case 'conflict':
        // An earlier attempt's write, whose answer was lost, landed after this attempt read the object: it is
        // this job's own write, holding exactly the planned metadata on the same body.
        if (retrying && holdsPlanned(before, plan.planned, result.theirs)) {
          return { kind: 'settled', records: [{ ...base, state: 'changed', before, after: storedAfter(result.theirs) }], outcome: { kind: 'other' } };
        }
        return { kind: 'settled', records: [{ ...base, state: 'skipped', code: 'changed_since', before }], outcome: { kind: 'other' } };
    }
  } catch (error) {
    // No answer: the copy may have landed. The record keeps its before-image and says so.
    return failure(error, context, (fields) => [{ ...base, before, ...fields, state: fields.state ?? 'failed' }], true);
  }
}

function verifyTarget(context: UnitContext): VerifyTarget {
  const { scope } = context.job;
  return { client: context.client, zone: context.job.zone, bucket: context.job.bucket, prefix: scope.kind === 'prefix' ? scope.prefix : '', amend: (records) => context.amend(records) };
}

function editOperation(flavour: EditFlavour): Operation {
  const verifier = new WriteVerifier();
  return {
    // Folder markers (keys ending in "/") carry no metadata anyone edits in bulk.
    accepts: (key) => !key.endsWith('/'),
    batch: 1,
    run: async (units, context) => {
      const unit = units[0];
      if (!unit) return { kind: 'settled', records: [], outcome: { kind: 'other' } };
      return runOne(flavour, unit.entry, unit.previous, context, verifier);
    },
    finish: (drop) => verifier.finish(drop),
  };
}

export function editObjects(edits: MetadataEdits): Operation {
  return editOperation(editFlavour(edits));
}

export const undoEdits: Operation = editOperation(undoFlavour);
