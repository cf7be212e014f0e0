import type { ObjectSelection } from '../../features/object-browser/slots.ts';
import { DeleteSelected } from '../../features/object-actions/selection.tsx';
import { useBrowseLocation } from '../../hooks/browse-location.ts';
import { SelectionJobButton } from '../jobs/job-buttons.tsx';
import { SelectionSingle } from './row-actions.tsx';

/**
 * The selection bar's actions as one piece of code: they arrive together, so the bar never shows one placeholder
 * per action that each turns into a wider button in whatever order its code lands (moving the ones after it).
 */
export function SelectionActions({ selection: { zone, bucket, keys, onDone } }: { selection: ObjectSelection }) {
  const here = useBrowseLocation();
  return (
    <>
      <SelectionSingle zone={zone} bucket={bucket} keys={keys} />
      <SelectionJobButton zone={zone} bucket={bucket} keys={keys} base={here.prefix} />
      <DeleteSelected zone={zone} bucket={bucket} keys={keys} onDeleted={onDone} />
    </>
  );
}
