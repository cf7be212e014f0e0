import type { ReactNode } from 'react';

export type StatusTone = 'neutral' | 'busy' | 'ok' | 'warn' | 'danger';

/** A state in words with a coloured dot before it; the words carry the meaning, the colour only repeats it. */
export function Status({ tone, children }: { tone: StatusTone; children: ReactNode }) {
  return (
    <span className={`status status--${tone}`}>
      <span className="status__dot" aria-hidden="true" />
      {children}
    </span>
  );
}
