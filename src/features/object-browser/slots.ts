import type { ReactNode } from 'react';
import type { BrowseLocation } from '../../hooks/browse-location.ts';
import type { ObjectDetailsContext } from './object-details.tsx';

/**
 * Extension points for the features that come later (metadata editing, uploads, multipart inspector):
 * features never import each other, so the app's route module passes their UI in here.
 */
export interface ObjectBrowserSlots {
  /** Extra toolbar controls (upload, new folder, bulk actions) for the folder being shown. */
  toolbarExtra?: (location: BrowseLocation) => ReactNode;
  /** Actions in the details panel's Overview tab (copy/move/delete) for the open object. */
  detailsExtra?: (object: ObjectDetailsContext) => ReactNode;
  /** Actions in the details panel's Metadata tab (Edit opens the metadata editor). */
  detailsMetadataActions?: (object: ObjectDetailsContext) => ReactNode;
  /** Actions on the selected objects (delete, edit metadata), shown in the selection bar. */
  selectionActions?: (selection: ObjectSelection) => ReactNode;
  /** What a row menu's action shows (a dialog, a download) until it calls `onClose`; without it the menu only opens rows. */
  rowAction?: (action: RowAction) => ReactNode;
  /** Files dropped on the object area, for the folder being shown; called during the drop event. */
  onDropFiles?: (target: { zone: string; bucket: string; prefix: string }, transfer: DataTransfer) => void;
}

export type RowActionKind = 'download' | 'copy' | 'move' | 'editMetadata' | 'delete' | 'bulkEditFolder' | 'deleteFolder';

/** An action picked in a row's menu: on an object, or (bulkEditFolder, deleteFolder) on a folder whose prefix is `key`. */
export interface RowAction {
  kind: RowActionKind;
  zone: string;
  bucket: string;
  key: string;
  onClose: () => void;
}

/** What the selection bar's actions act on; `onDone` takes keys that no longer exist out of the selection. */
export interface ObjectSelection {
  zone: string;
  bucket: string;
  keys: readonly string[];
  onDone: (removed: ReadonlySet<string>) => void;
}
