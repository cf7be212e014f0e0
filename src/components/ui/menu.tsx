import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';

export interface MenuItem {
  id: string;
  label: string;
  icon?: ReactNode;
  /** A destructive action: shown in red, after a separator, and never the first item. */
  danger?: boolean;
  disabled?: boolean;
  onSelect: () => void;
}

/**
 * A menu behind a button (toolbar "More", a bucket's actions). Behaviour from Radix's dropdown menu, the same
 * family as the row menu (`@radix-ui/react-context-menu`, sharing its menu core): roles, arrow keys and
 * typeahead, Escape, focus given back to the button. Load it lazily (menu-lazy.tsx): it is never needed for a
 * view's first paint.
 */
export function Menu({ label, trigger, items, align = 'end' }: { label: string; trigger: ReactNode; items: readonly MenuItem[]; align?: 'start' | 'end' }) {
  const safe = items.filter((item) => !item.danger);
  const danger = items.filter((item) => item.danger);
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Content className="menu" aria-label={label} align={align} sideOffset={4} collisionPadding={8} loop>
        {safe.map((item) => (
          <Item key={item.id} item={item} />
        ))}
        {safe.length > 0 && danger.length > 0 ? <DropdownMenu.Separator className="menu__separator" /> : null}
        {danger.map((item) => (
          <Item key={item.id} item={item} />
        ))}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

function Item({ item }: { item: MenuItem }) {
  return (
    <DropdownMenu.Item className={`menu__item${item.danger ? ' menu__item--danger' : ''}`} disabled={item.disabled ?? false} onSelect={item.onSelect}>
      {item.icon ? <span className="menu__icon" aria-hidden="true">{item.icon}</span> : null}
      {item.label}
    </DropdownMenu.Item>
  );
}
