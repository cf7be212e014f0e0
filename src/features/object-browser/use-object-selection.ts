import { useCallback, useMemo, useRef, useState } from 'react';
import { objectKeysBetween, type Row } from './rows.ts';

/**
 * The selection of one listing (`listKey`): keys that left the listing (deleted) drop out of it.
 * `inUse`: the selection bar (over the list's tools) shows from the first selected object until the user clears
 * the selection or unticks the last object, and a dialog opened from it (a delete's per-key results) outlives
 * the keys it removed.
 * `all`: every object of the listing, the pages loaded after the choice included ("Select all matching").
 */
interface SelectionState {
  listKey: string;
  keys: ReadonlySet<string>;
  anchor: number;
  inUse: boolean;
  all?: boolean;
}

/**
 * The object selection of the listing `listKey`: `rows` as shown (sorted), `keyOrder` as loaded. The Delete
 * key presses the selection bar's delete button (`barRef`), so it asks and reports exactly as a click does.
 */
export function useObjectSelection(listKey: string, rows: readonly Row[], keyOrder: readonly Row[]) {
  const [selection, setSelection] = useState<SelectionState>({ listKey, keys: new Set(), anchor: -1, inUse: false });
  const actionsShown = selection.listKey === listKey && selection.inUse;
  const selectedKeys = useMemo(() => {
    if (selection.listKey !== listKey) return new Set<string>();
    return new Set(keyOrder.filter((row) => row.kind === 'object' && (selection.all === true || selection.keys.has(row.key))).map((row) => row.key));
  }, [selection, listKey, keyOrder]);
  const selectedBytes = useMemo(() => keyOrder.reduce((sum, row) => sum + (row.kind === 'object' && selectedKeys.has(row.key) ? row.size : 0), 0), [keyOrder, selectedKeys]);
  const onToggle = useCallback(
    (index: number, range: boolean) => {
      const row = rows[index];
      if (row?.kind !== 'object') return;
      const on = !selectedKeys.has(row.key);
      const anchor = selection.listKey === listKey ? selection.anchor : -1;
      const keys = range && anchor >= 0 ? objectKeysBetween(rows, anchor, index) : [row.key];
      const next = new Set(selectedKeys);
      for (const key of keys) {
        if (on) next.add(key);
        else next.delete(key);
      }
      setSelection({ listKey, keys: next, anchor: index, inUse: next.size > 0 });
    },
    [rows, selectedKeys, selection, listKey],
  );
  const onToggleAll = useCallback(
    (on: boolean) => {
      const keys = on ? new Set(keyOrder.filter((row) => row.kind === 'object').map((row) => row.key)) : new Set<string>();
      setSelection({ listKey, keys, anchor: -1, inUse: keys.size > 0 });
    },
    [keyOrder, listKey],
  );
  const barRef = useRef<HTMLElement>(null);
  const onDeleteKey = useCallback(() => {
    const bar = barRef.current;
    if (selectedKeys.size === 0 || !bar) return;
    const find = () => bar.querySelector<HTMLButtonElement>('[data-action="delete-selected"]:not(:disabled)');
    const button = find();
    if (button) {
      button.click();
      return;
    }
    // The delete action loads with the selection bar's later views: a Delete pressed before it arrived is
    // carried out as soon as the button is there, not lost (the watch ends after 10 s).
    const observer = new MutationObserver(() => {
      const arrived = find();
      if (!arrived) return;
      observer.disconnect();
      arrived.click();
    });
    observer.observe(bar, { childList: true, subtree: true, attributes: true });
    setTimeout(() => observer.disconnect(), 10_000);
  }, [selectedKeys]);
  const clearSelection = useCallback(() => setSelection({ listKey, keys: new Set(), anchor: -1, inUse: false }), [listKey]);
  const loadedObjects = useMemo(() => keyOrder.reduce((n, row) => n + (row.kind === 'object' ? 1 : 0), 0), [keyOrder]);
  const allMatching = selection.listKey === listKey && selection.all === true;
  const [loadingAll, setLoadingAll] = useState<string | null>(null);
  const selectAllMatching = () => {
    setSelection({ listKey, keys: new Set(), anchor: -1, inUse: true, all: true });
    setLoadingAll(listKey);
  };
  const onSelectionDone = useCallback(
    (removed: ReadonlySet<string>) =>
      setSelection((previous) => ({ ...previous, keys: new Set([...previous.keys].filter((key) => !removed.has(key))) })),
    [],
  );
  return {
    actionsShown, selectedKeys, selectedBytes, loadedObjects, allMatching, onToggle, onToggleAll, onDeleteKey, barRef,
    clearSelection, selectAllMatching, onSelectionDone,
    /** "Select all matching" is reading the remaining pages of this listing. */
    loadingAll: loadingAll === listKey,
    cancelLoadingAll: () => setLoadingAll(null),
  };
}

export type ObjectSelectionModel = ReturnType<typeof useObjectSelection>;
