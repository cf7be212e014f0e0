import { BulkEditButton } from '../../features/metadata/bulk-edit.tsx';
import type { ObjectSelection } from '../../features/object-browser/slots.ts';
import { DeleteSelected } from '../../features/object-actions/selection.tsx';
import { SelectionSingle } from './row-actions.tsx';

/**
 * The selection bar's actions as one piece of code: they arrive together, so the bar never shows one placeholder
 * per action that each turns into a wider button in whatever order its code lands (moving the ones after it).
 */
export function SelectionActions({ selection: { zone, bucket, keys, onDone } }: { selection: ObjectSelection }) {
  return (
    <>
      <SelectionSingle zone={zone} bucket={bucket} keys={keys} />
      <BulkEditButton zone={zone} bucket={bucket} keys={keys} />
      <DeleteSelected zone={zone} bucket={bucket} keys={keys} onDeleted={onDone} />
    </>
  );
}
