import { lazyView } from '../../components/lazy-view.tsx';
import type { ReplaceMetadataRenderer } from '../../features/object-actions/action-props.ts';
import type { ObjectSelection, RowAction } from '../../features/object-browser/slots.ts';
import type { ObjectDetailsContext } from '../../features/object-browser/object-details.tsx';
import { browseHref, useBrowseLocation } from '../../hooks/browse-location.ts';
import { useNavigate } from '../../lib/router.tsx';

// What the object browser's slots show once an object is open, objects are selected or a row menu's action is
// picked. This module is small and loads lazily from bucket-route.tsx; the views below load on first use (or
// with `preloadSlotViews`, once the page is idle). Keeping their dynamic imports here rather than in the route
// keeps the list of their chunks (which Vite writes into the importing chunk) out of the first screen's JS.

// The metadata editor, copy/move/delete, bulk edit, and react-hook-form under them.
const MetadataEditorLauncher = lazyView(async () => (await import('../../features/metadata/metadata-editor.tsx')).MetadataEditorLauncher);
const ObjectActions = lazyView(async () => (await import('../../features/object-actions/object-actions.tsx')).ObjectActions);
const ReplaceMetadataFields = lazyView(async () => (await import('../../features/metadata/replace-metadata-fields.tsx')).ReplaceMetadataFields);
// The row menu's actions (row-actions.tsx).
const RowActionView = lazyView(async () => (await import('./row-actions.tsx')).RowActionView, { fallback: 'none' });
// The selection bar's actions (one-object actions, bulk edit, delete): one chunk, one placeholder, all at once.
const SelectionActions = lazyView(async () => (await import('./selection-actions.tsx')).SelectionActions);

const VIEWS = [MetadataEditorLauncher, ObjectActions, ReplaceMetadataFields, SelectionActions, RowActionView];

/** Downloads the code of every view above (what the route's idle preload calls). */
export async function preloadSlotViews(): Promise<void> {
  await Promise.all(VIEWS.map((view) => view.preload()));
}

/** The object table's selection bar: download, copy and move one object, edit metadata of all selected (bulk edit), delete with per-key results. */
export function TableSelectionActions({ selection }: { selection: ObjectSelection }) {
  return <SelectionActions selection={selection} />;
}

/** What a row menu's action shows until it is over. */
export function RowActionSlot({ action }: { action: RowAction }) {
  return <RowActionView action={action} />;
}

const renderReplaceMetadata: ReplaceMetadataRenderer = (props) => <ReplaceMetadataFields {...props} />;

/** The details panel's Overview actions (copy, move, delete) for the open object. */
export function DetailsExtra({ object }: { object: ObjectDetailsContext }) {
  const navigate = useNavigate();
  const here = useBrowseLocation();
  const onNavigate = (target: { bucket: string; key: string } | null) => {
    if (target === null) navigate(browseHref({ ...here, object: null }));
    else if (target.bucket === here.bucket) navigate(browseHref({ ...here, object: target.key }));
    else {
      const prefix = target.key.slice(0, target.key.lastIndexOf('/') + 1);
      navigate(browseHref({ zone: here.zone, bucket: target.bucket, prefix, object: target.key }));
    }
  };
  return (
    <ObjectActions
      zone={object.zone}
      bucket={object.bucket}
      objectKey={object.key}
      head={object.head}
      renderReplaceMetadata={renderReplaceMetadata}
      onNavigate={onNavigate}
    />
  );
}

/** The details panel's Metadata tab: Edit opens the metadata editor. */
export function DetailsMetadataActions({ object }: { object: ObjectDetailsContext }) {
  return <MetadataEditorLauncher zone={object.zone} bucket={object.bucket} objectKey={object.key} />;
}
