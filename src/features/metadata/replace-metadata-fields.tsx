import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { applyMetadataEdits } from '../../api/metadata/edit.ts';
import type { ObjectMetadata } from '../../api/metadata/types.ts';
import { STANDARD_METADATA_HEADERS } from '../../api/protocol/headers.ts';
import { editorIssues, editorSchema, editsFromValues, valuesFromMetadata, type EditorValues } from '../../components/metadata-form/form-model.ts';
import type { ObjectHead } from '../../api/objects/read.ts';
import { useHeaderVisibility } from '../../hooks/use-header-visibility.ts';
import { MetadataFields } from '../../components/metadata-form/metadata-form.tsx';
import { completenessBlock } from '../../api/metadata/save.ts';
import { SaveSafetyNotice } from './visibility-notice.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './metadata.css';

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

/**
 * Reads back the JSON this component reported. Not through a zod record: zod rebuilds records by
 * assignment, which drops a `__proto__` key, and metadata keys are data (JSON.parse keeps them own).
 */
function parseReported(json: string): ObjectMetadata | null {
  const value: unknown = JSON.parse(json);
  if (value === null || typeof value !== 'object' || !('standard' in value) || !('custom' in value)) return null;
  const { standard, custom } = value;
  if (!isStringRecord(standard) || !isStringRecord(custom)) return null;
  const known: ObjectMetadata['standard'] = {};
  for (const name of STANDARD_METADATA_HEADERS) if (Object.hasOwn(standard, name)) known[name] = standard[name];
  return { standard: known, custom };
}

/**
 * The editor's fields as a controlled part of another form (copy with REPLACE): reports the complete
 * metadata the destination will get, or null while the fields break a rule — or while the browser
 * cannot read every header of the source (a REPLACE copy would silently leave those out).
 * Reported only when the result changes (compared as JSON), not on every render.
 */
export function ReplaceMetadataFields({ source, initial, onChange }: {
  source: { zone: string; bucket: string; head: ObjectHead };
  initial: ObjectMetadata;
  onChange: (metadata: ObjectMetadata | null) => void;
}) {
  const form = useForm<EditorValues>({ defaultValues: valuesFromMetadata(initial), resolver: zodResolver(editorSchema), mode: 'onChange' });
  const visibility = useHeaderVisibility(source.zone, source.bucket);
  const block = completenessBlock(visibility, source.head);
  // oxlint-disable-next-line react/incompatible-library -- watch() re-renders on each change: live errors are the point
  const values = form.watch();
  const result = block === null && editorIssues(values).length === 0 ? applyMetadataEdits(initial, editsFromValues(initial, values)) : null;
  const serialized = JSON.stringify(result);
  useEffect(() => {
    onChange(parseReported(serialized));
  }, [serialized, onChange]);
  return (
    <>
      <SaveSafetyNotice block={block} bucket={{ zone: source.zone, name: source.bucket }} allowAcknowledge={false} acknowledged={false} onAcknowledge={() => undefined} />
      <MetadataFields form={form} />
    </>
  );
}
