import { useState } from 'react';
import { lazyView } from '../../components/lazy-view.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

// The job's dialog (the engine, react-hook-form, zod, the save guards) loads when the button is first pressed.
const BulkJobDialog = lazyView(async () => (await import('./job-dialog-entry.tsx')).BulkJobDialog);

/** "Edit metadata of N objects" in the selection bar: a bulk job over exactly the selected objects. */
export function SelectionJobButton({ zone, bucket, keys, base }: { zone: string; bucket: string; keys: readonly string[]; base: string }) {
  const { tp } = useI18n();
  const [frozen, setFrozen] = useState<readonly string[] | null>(null);
  return (
    <>
      <button type="button" className="button" disabled={keys.length === 0} onClick={() => setFrozen([...keys])}>
        {tp('metadata.bulk.open', keys.length)}
      </button>
      {/* The selection is frozen when the dialog opens: the job covers exactly these objects. */}
      {frozen ? <BulkJobDialog zone={zone} bucket={bucket} scope={{ kind: 'keys', base, keys: frozen }} onClose={() => setFrozen(null)} /> : null}
    </>
  );
}
