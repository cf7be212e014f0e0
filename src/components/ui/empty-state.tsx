import type { ReactNode } from 'react';

/**
 * What an empty view says: what would be here (`title`), why it is empty or what to try (`body`), and the
 * next step as a button (`action`). Never a blank table.
 */
export function EmptyState({ title, body, action, icon }: { title: string; body?: ReactNode; action?: ReactNode; icon?: ReactNode }) {
  return (
    <output className="empty-state">
      {icon ? <div className="empty-state__icon" aria-hidden="true">{icon}</div> : null}
      <p className="empty-state__title">{title}</p>
      {body ? <p className="empty-state__body">{body}</p> : null}
      {action ? <div className="empty-state__action">{action}</div> : null}
    </output>
  );
}
