/**
 * The editor of an object whose stored Content-Encoding the browser refuses (headObjectReadable's `refused`):
 * its value cannot be read, so the form shows the field empty, and the notice says saving replaces it with
 * what the field holds, empty removing it. So a save always replaces it: clearing the field (or leaving it
 * empty) is the repair, in one step, and the review shows the unreadable value going.
 */
import { applyMetadataEdits, diffMetadata, type MetadataChange, type MetadataEdits } from '../../api/metadata/edit.ts';
import type { ObjectMetadata } from '../../api/metadata/types.ts';
import type { ObjectHead } from '../../api/objects/read.ts';

/** `edits` with the refused header replaced (by the form's value, or removed) when `base` has one. */
export function withRefusedReplaced(base: Pick<ObjectHead, 'refused'>, edits: MetadataEdits): MetadataEdits {
  const header = base.refused;
  if (header === undefined || edits.standard?.[header] !== undefined) return edits;
  return { ...edits, standard: { ...edits.standard, [header]: null } };
}

/**
 * What a save changes from `base` to `after`: the diff of what could be read, plus the refused header, whose
 * value before is unknown (`beforeUnknown`).
 */
export function changesFrom(base: Pick<ObjectHead, 'refused' | 'metadata'>, after: ObjectMetadata): MetadataChange[] {
  const changes = diffMetadata(base.metadata, after);
  const header = base.refused;
  if (header === undefined) return changes;
  const value = after.standard[header];
  const refused: MetadataChange =
    value === undefined ? { kind: 'removed', field: header, beforeUnknown: true } : { kind: 'changed', field: header, after: value, beforeUnknown: true };
  return [refused, ...changes.filter((change) => change.field !== header)];
}

/** The review of `edits` on `base`. */
export function reviewChanges(base: Pick<ObjectHead, 'refused' | 'metadata'>, edits: MetadataEdits): MetadataChange[] {
  return changesFrom(base, applyMetadataEdits(base.metadata, withRefusedReplaced(base, edits)));
}
