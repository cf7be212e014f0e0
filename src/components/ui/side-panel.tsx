import type { ReactNode } from 'react';

/**
 * A panel beside the content (object details, upload progress): a complementary landmark with a title and
 * a close button. On a wide screen it overlays the end of the content instead of squeezing it; on a phone
 * it covers the screen. Widths come from CSS (`--panel-w`).
 */
export function SidePanel({ label, header, children, className }: { label: string; header: ReactNode; children: ReactNode; className?: string }) {
  return (
    <aside className={['side-panel', className ?? ''].filter(Boolean).join(' ')} aria-label={label}>
      <div className="side-panel__header">{header}</div>
      <div className="side-panel__body">{children}</div>
    </aside>
  );
}
