import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { applyMetadataEdits } from '../../api/metadata/edit.ts';
import { STANDARD_METADATA_HEADERS, type ObjectMetadata } from '../../api/metadata/model.ts';
import { editorIssues, editorSchema, editsFromValues, valuesFromMetadata, type EditorValues } from './editor-model.ts';
import { MetadataFields } from './metadata-fields.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './metadata.css';

const reportedSchema = z
  .object({ standard: z.partialRecord(z.enum(STANDARD_METADATA_HEADERS), z.string()), custom: z.record(z.string(), z.string()) })
  .nullable();

/**
 * The editor's fields as a controlled part of another form (copy with REPLACE): reports the complete
 * metadata the destination will get, or null while the fields break a rule. Reported only when the
 * result changes (compared as JSON), not on every render.
 */
export function ReplaceMetadataFields({ initial, onChange }: { initial: ObjectMetadata; onChange: (metadata: ObjectMetadata | null) => void }) {
  const form = useForm<EditorValues>({ defaultValues: valuesFromMetadata(initial), resolver: zodResolver(editorSchema), mode: 'onChange' });
  // oxlint-disable-next-line react/incompatible-library -- watch() re-renders on each change: live errors are the point
  const values = form.watch();
  const result = editorIssues(values).length === 0 ? applyMetadataEdits(initial, editsFromValues(initial, values)) : null;
  const serialized = JSON.stringify(result);
  useEffect(() => {
    onChange(reportedSchema.parse(JSON.parse(serialized)));
  }, [serialized, onChange]);
  return <MetadataFields form={form} />;
}
