import type { ComponentProps, ReactNode } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'quiet' | 'danger';

/**
 * The console's button. One `primary` per view (the action the view is for); `danger` only for the
 * confirming button of a destructive dialog, never in a toolbar. `type` defaults to "button".
 */
export function Button({ variant = 'secondary', size = 'md', icon, className, children, type = 'button', ...rest }: ComponentProps<'button'> & {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  icon?: ReactNode;
}) {
  return (
    // oxlint-disable-next-line react/button-has-type -- the type comes from the caller, "button" unless it says otherwise
    <button type={type} className={buttonClass(variant, size, className)} {...rest}>
      {icon}
      {children}
    </button>
  );
}

/** The class names of a Button, for a link or a label that must look like one. */
export function buttonClass(variant: ButtonVariant = 'secondary', size: 'sm' | 'md' = 'md', extra?: string): string {
  return ['button', variant === 'secondary' ? '' : `button--${variant}`, size === 'sm' ? 'button--small' : '', extra ?? ''].filter(Boolean).join(' ');
}

/**
 * A row of buttons closing a form or a dialog, in one order everywhere: the way out (Cancel) first, the
 * action last, at the end of the line, where the eye finishes reading.
 */
export function ActionRow({ children, align = 'end' }: { children: ReactNode; align?: 'start' | 'end' }) {
  return <div className={`action-row action-row--${align}`}>{children}</div>;
}
