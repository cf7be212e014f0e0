import type { ReactNode } from 'react';
import { Link } from '../../lib/router.tsx';

export interface Crumb {
  /** Stable and unique among the crumbs. */
  id: string;
  label: ReactNode;
  /** A place to go back to; without it the crumb is the page shown (`aria-current`). */
  to?: string;
  /** What the link does, when its label alone does not say it. */
  title?: string;
  /** Muted words after the label (a bucket's zone). */
  detail?: ReactNode;
}

/**
 * Where a page is, for the page header's `crumbs`: "Buckets / demo-uploads / In-progress uploads". Names
 * (keys, buckets) break only where they must.
 */
export function Crumbs({ label, items }: { label: string; items: readonly Crumb[] }) {
  return (
    <nav aria-label={label} className="crumbs">
      <ol>
        {items.map((item) => (
          <li key={item.id}>
            {item.to === undefined ? (
              <span aria-current="page" dir="auto">
                {item.label}
              </span>
            ) : (
              <Link to={item.to} title={item.title}>
                {item.label}
              </Link>
            )}
            {item.detail ? <span className="crumbs__detail"> {item.detail}</span> : null}
          </li>
        ))}
      </ol>
    </nav>
  );
}
