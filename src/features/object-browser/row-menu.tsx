import * as ContextMenu from '@radix-ui/react-context-menu';
import { useEffect, useRef } from 'react';
import type { MenuAnchor } from './object-list.tsx';

export interface RowMenuItem {
  id: string;
  label: string;
  danger?: boolean;
  onSelect: () => void;
}

/**
 * One row's menu (the "…" button, a right-click, Shift+F10 or the context-menu key), loaded the first time a
 * menu opens. Radix's context menu supplies the menu behaviour (roles, arrow keys and typeahead, Escape,
 * focus kept inside and given back, placement that stays on screen); it opens where its trigger receives a
 * `contextmenu` event, so this component opens it at `anchor` by sending one to its own empty trigger.
 */
export function RowMenu({ anchor, label, items, onClose }: { anchor: MenuAnchor; label: string; items: readonly RowMenuItem[]; onClose: () => void }) {
  const trigger = useRef<HTMLSpanElement>(null);
  const entered = useRef(false);
  useEffect(() => {
    trigger.current?.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: anchor.x, clientY: anchor.y }));
  }, [anchor]);
  return (
    // Not modal and not portalled: the menu stays inside the page's main landmark and leaves the rest of the
    // page readable (a modal menu hides the whole app from assistive technology while it is open).
    <ContextMenu.Root
      modal={false}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <ContextMenu.Trigger ref={trigger} className="row-menu__anchor" />
      <ContextMenu.Content
        className="row-menu"
        aria-label={label}
        loop
        collisionPadding={8}
        onFocus={(event) => {
          // The menu gets the focus when it opens: pass it on to the first action (as any menu button does),
          // once; later focus on the menu itself (the pointer leaving an item) stays there.
          if (entered.current || event.target !== event.currentTarget) return;
          entered.current = true;
          event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
        }}
      >
        {items.map((item) => (
          <ContextMenu.Item key={item.id} className={`row-menu__item${item.danger ? ' row-menu__item--danger' : ''}`} onSelect={item.onSelect}>
            {item.label}
          </ContextMenu.Item>
        ))}
      </ContextMenu.Content>
    </ContextMenu.Root>
  );
}
