import { useId, type ReactNode } from 'react';

/**
 * The top of every view: where you are (`crumbs`), what it is (`title`, with a count and badges beside it)
 * and what you can do here (`actions`, at the end of the line; one of them primary at most). Its height does
 * not depend on what loads below it.
 */
export function PageHeader({ title, count, badges, actions, crumbs, level = 1, titleId }: {
  title: ReactNode;
  count?: ReactNode;
  badges?: ReactNode;
  actions?: ReactNode;
  crumbs?: ReactNode;
  level?: 1 | 2;
  titleId?: string;
}) {
  const fallbackId = useId();
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <header className="page-header">
      {crumbs ? <div className="page-header__crumbs">{crumbs}</div> : null}
      <div className="page-header__main">
        <div className="page-header__title">
          <Heading id={titleId ?? fallbackId}>{title}</Heading>
          {badges}
          {count !== undefined ? <output className="page-header__count">{count}</output> : null}
        </div>
        {actions ? <div className="page-header__actions">{actions}</div> : null}
      </div>
    </header>
  );
}
