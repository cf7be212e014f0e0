import { lazyView } from '../../components/lazy-view.tsx';
import { useDropUpload } from '../../features/upload-queue/ui/drop-upload.ts';
import { ObjectBrowser } from '../../features/object-browser/object-browser.tsx';
import type { ObjectSelection, RowAction } from '../../features/object-browser/slots.ts';
import type { ObjectDetailsContext } from '../../features/object-browser/object-details.tsx';
import type { BrowseLocation } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { AfterFirstScreen, usePreloadAfterFirstScreen } from '../first-screen.tsx';
import { RequireSession } from '../require-session.tsx';

// Features never import each other: this route composes them into the browser's slots.

// The toolbar's controls from other features (upload, inspector, new folder, delete folder, settings) load
// once the first rows are shown (first-screen.tsx), not beside the listing: they appear as soon as their chunk is there.
const ToolbarExtra = lazyView(async () => (await import('./toolbar-extra.tsx')).ToolbarExtra, { fallback: 'none' });

// What only an open object, a selection or a row menu's action needs (the metadata editor, copy/move/delete,
// bulk edit) is composed in bucket-slots.tsx, which loads after the listing: when first shown, or once the
// first rows are shown (usePreloadAfterFirstScreen in BucketRoute), together with the views it shows.
const loadSlots = () => import('./bucket-slots.tsx');
const TableSelectionActions = lazyView(async () => (await loadSlots()).TableSelectionActions, { fallback: 'none' });
const RowActionSlot = lazyView(async () => (await loadSlots()).RowActionSlot, { fallback: 'none' });
const DetailsExtra = lazyView(async () => (await loadSlots()).DetailsExtra, { fallback: 'none' });
const DetailsMetadataActions = lazyView(async () => (await loadSlots()).DetailsMetadataActions, { fallback: 'none' });
const LATER_VIEWS = [{ preload: async () => (await loadSlots()).preloadSlotViews() }];

function toolbarExtra(location: BrowseLocation) {
  return (
    <AfterFirstScreen>
      <ToolbarExtra location={location} />
    </AfterFirstScreen>
  );
}

function tableSelectionActions(selection: ObjectSelection) {
  return <TableSelectionActions selection={selection} />;
}

function rowAction(action: RowAction) {
  return <RowActionSlot action={action} />;
}

function detailsExtra(object: ObjectDetailsContext) {
  return <DetailsExtra key={`${object.bucket}|${object.key}`} object={object} />;
}

function detailsMetadataActions(object: ObjectDetailsContext) {
  return <DetailsMetadataActions key={`${object.bucket}|${object.key}`} object={object} />;
}

export function BucketRoute() {
  usePreloadAfterFirstScreen(LATER_VIEWS);
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
