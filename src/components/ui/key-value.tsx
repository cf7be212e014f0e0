import type { ReactNode } from 'react';

export interface KeyValueItem {
  key: string;
  label: ReactNode;
  value: ReactNode;
  /** Monospaced value (an ETag, an id): it may break anywhere, words never do. */
  mono?: boolean;
}

/** Facts as a description list: labels in one column, values beside them (stacked on a phone). */
export function KeyValueList({ items, label }: { items: readonly KeyValueItem[]; label?: string }) {
  return (
    <dl className="kv" aria-label={label}>
      {items.map((item) => (
        <div className="kv__row" key={item.key}>
          <dt>{item.label}</dt>
          <dd className={item.mono ? 'kv__value mono' : 'kv__value'}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
