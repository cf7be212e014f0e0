import { useI18n } from '../../i18n/i18n.tsx';
import type { MenuAnchor } from './object-list.tsx';
import { RowMenu, type RowMenuItem } from './row-menu.tsx';
import type { Row } from './rows.ts';
import type { RowActionKind } from './slots.ts';

const OBJECT_ACTIONS: ReadonlyArray<{ kind: RowActionKind; label: 'menu.download' | 'menu.copy' | 'menu.move' | 'menu.editMetadata' | 'menu.delete'; danger?: boolean }> = [
  { kind: 'download', label: 'menu.download' },
  { kind: 'copy', label: 'menu.copy' },
  { kind: 'move', label: 'menu.move' },
  { kind: 'editMetadata', label: 'menu.editMetadata' },
  { kind: 'delete', label: 'menu.delete', danger: true },
];

/**
 * A row's menu: Open (a folder) or Details (an object), then, when the app supplies the actions (`onPick`),
 * what can be done to it; the folder's and the object's delete are set apart as dangerous.
 */
function rowMenuItems(row: Row, t: ReturnType<typeof useI18n>['t'], { onOpen, onPick }: { onOpen: () => void; onPick: ((kind: RowActionKind) => void) | undefined }): RowMenuItem[] {
  const pick = (kind: RowActionKind) => () => onPick?.(kind);
  if (row.kind === 'folder') {
    return [
      { id: 'open', label: t('menu.open'), onSelect: onOpen },
      ...(onPick
        ? [
            { id: 'bulkEditFolder', label: t('menu.bulkEditFolder'), onSelect: pick('bulkEditFolder') },
            { id: 'deleteFolder', label: t('menu.deleteFolder'), danger: true, onSelect: pick('deleteFolder') },
          ]
        : []),
    ];
  }
  return [
    { id: 'open', label: t('menu.details'), onSelect: onOpen },
    ...(onPick ? OBJECT_ACTIONS.map(({ kind, label, danger }) => ({ id: kind, label: t(label), ...(danger ? { danger } : {}), onSelect: pick(kind) })) : []),
  ];
}

/** The menu of one row, with its items; loaded with the menu the first time one opens, not with the list. */
export function RowMenuFor({ row, anchor, label, onOpen, onPick, onClose }: {
  row: Row;
  anchor: MenuAnchor;
  label: string;
  onOpen: () => void;
  onPick: ((kind: RowActionKind) => void) | undefined;
  onClose: () => void;
}) {
  const { t } = useI18n();
  return <RowMenu anchor={anchor} label={label} items={rowMenuItems(row, t, { onOpen, onPick })} onClose={onClose} />;
}
