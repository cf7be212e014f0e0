import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'info' | 'public' | 'demo' | 'ok' | 'danger';

/** A short label beside a name: Public (anyone can read), Demo (nothing leaves this browser), a zone. */
export function Badge({ tone = 'neutral', children, title }: { tone?: BadgeTone; children: ReactNode; title?: string }) {
  return (
    <span className={`tag tag--${tone}`} title={title}>
      {children}
    </span>
  );
}
