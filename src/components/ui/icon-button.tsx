import type { ButtonHTMLAttributes, ReactNode } from 'react';

/**
 * A button showing only an icon. Its label is its accessible name and also a tooltip the eye can see
 * (on hover and on keyboard focus, drawn in CSS from `data-tip`), so the meaning is never only in the icon.
 */
export function IconButton({ label, icon, className, bordered = false, tipSide = 'below', type = 'button', ...rest }: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> & {
  label: string;
  icon: ReactNode;
  bordered?: boolean;
  /** Where the tooltip goes: centred below (default), above, or below and running from the button's start or end edge. */
  tipSide?: 'below' | 'above' | 'start' | 'end';
}) {
  return (
    // oxlint-disable-next-line react/button-has-type -- the type comes from the caller, "button" unless it says otherwise
    <button
      type={type}
      aria-label={label}
      data-tip={label}
      data-tip-side={tipSide}
      className={['icon-button', bordered ? 'icon-button--bordered' : '', className ?? ''].filter(Boolean).join(' ')}
      {...rest}
    >
      {icon}
    </button>
  );
}
