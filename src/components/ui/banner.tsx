import type { ReactNode } from 'react';

export type BannerTone = 'info' | 'ok' | 'warn' | 'danger';

/**
 * A message that stays in the page until what it says is no longer true (a bucket the browser may not read,
 * edits that will be dropped). Errors are announced (`role="alert"`), the others are read as status.
 */
export function Banner({ tone = 'info', title, children, actions }: { tone?: BannerTone; title?: ReactNode; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className={`banner banner--${tone}`} role={tone === 'danger' ? 'alert' : 'status'}>
      <div className="banner__text">
        {title ? <p className="banner__title">{title}</p> : null}
        {children}
      </div>
      {actions ? <div className="banner__actions">{actions}</div> : null}
    </div>
  );
}
