import { useNavigate } from '../../lib/router.tsx';
import { lazyView, usePreloadWhenIdle } from '../../components/lazy-view.tsx';
import type { ReplaceMetadataRenderer } from '../../features/object-actions/object-actions.tsx';
import { useDropUpload } from '../../features/uploads/ui/drop-upload.ts';
import { ObjectBrowser, type ObjectSelection, type RowAction } from '../../features/object-browser/object-browser.tsx';
import type { ObjectDetailsContext } from '../../features/object-browser/object-details.tsx';
import { browseHref, useBrowseLocation, type BrowseLocation } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { RequireSession } from '../require-session.tsx';

// Features never import each other: this route composes them into the browser's slots.

// What only an open object or a selection needs (the metadata editor, copy/move/delete, bulk edit, and
// react-hook-form under them) loads after the listing: when first shown, or once the page is idle
// (usePreloadWhenIdle in BucketRoute), whichever comes first.
const MetadataEditorLauncher = lazyView(async () => (await import('../../features/metadata/metadata-editor.tsx')).MetadataEditorLauncher);
const ObjectActions = lazyView(async () => (await import('../../features/object-actions/object-actions.tsx')).ObjectActions);
const ReplaceMetadataFields = lazyView(async () => (await import('../../features/metadata/replace-metadata-fields.tsx')).ReplaceMetadataFields);
// The toolbar's controls from other features (upload, inspector, new folder, delete folder, settings) load
// beside the listing request, not before the screen: they appear as soon as their chunk is there.
const ToolbarExtra = lazyView(async () => (await import('./toolbar-extra.tsx')).ToolbarExtra, { fallback: 'none' });
const DeleteSelected = lazyView(async () => (await import('../../features/object-actions/selection.tsx')).DeleteSelected);
const BulkEditButton = lazyView(async () => (await import('../../features/metadata/bulk-edit.tsx')).BulkEditButton);
// The row menu's actions and the selection bar's one-object actions (row-actions.tsx) load when first needed.
const RowActionView = lazyView(async () => (await import('./row-actions.tsx')).RowActionView, { fallback: 'none' });
const SelectionSingle = lazyView(async () => (await import('./row-actions.tsx')).SelectionSingle);

// The object table's selection bar: download, copy and move one object, edit metadata of all selected (bulk
// edit), delete with per-key results.
function tableSelectionActions({ zone, bucket, keys, onDone }: ObjectSelection) {
  return (
    <>
      <SelectionSingle zone={zone} bucket={bucket} keys={keys} />
      <BulkEditButton zone={zone} bucket={bucket} keys={keys} />
      <DeleteSelected zone={zone} bucket={bucket} keys={keys} onDeleted={onDone} />
    </>
  );
}

function rowAction(action: RowAction) {
  return <RowActionView action={action} />;
}

function toolbarExtra(location: BrowseLocation) {
  return <ToolbarExtra location={location} />;
}

const renderReplaceMetadata: ReplaceMetadataRenderer = (props) => <ReplaceMetadataFields {...props} />;

function DetailsExtra({ object }: { object: ObjectDetailsContext }) {
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
    <>
      <ObjectActions
        zone={object.zone}
        bucket={object.bucket}
        objectKey={object.key}
        head={object.head}
        renderReplaceMetadata={renderReplaceMetadata}
        onNavigate={onNavigate}
      />
    </>
  );
}

function detailsExtra(object: ObjectDetailsContext) {
  return <DetailsExtra key={`${object.bucket}|${object.key}`} object={object} />;
}

// The details panel's Metadata tab: Edit opens the metadata editor.
function detailsMetadataActions(object: ObjectDetailsContext) {
  return <MetadataEditorLauncher key={`${object.bucket}|${object.key}`} zone={object.zone} bucket={object.bucket} objectKey={object.key} />;
}

const LATER_VIEWS = [MetadataEditorLauncher, ObjectActions, ReplaceMetadataFields, BulkEditButton, DeleteSelected, SelectionSingle];

export function BucketRoute() {
  usePreloadWhenIdle(LATER_VIEWS);
  return (
    <RequireSession>
      <BucketBrowser />
    </RequireSession>
  );
}

function BucketBrowser() {
  const session = useConnectedSession();
  const onDropFiles = useDropUpload();
  // Anonymous access only reads: nothing to drop files into, and a row's menu only opens rows.
  return (
    <ObjectBrowser
      toolbarExtra={toolbarExtra}
      detailsExtra={detailsExtra}
      detailsMetadataActions={detailsMetadataActions}
      selectionActions={tableSelectionActions}
      {...(session.mode === 'anonymous' ? {} : { rowAction, onDropFiles })}
    />
  );
}
