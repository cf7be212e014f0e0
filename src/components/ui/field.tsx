import { useId, type ReactNode } from 'react';

export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

/**
 * A form field: label, a one-line description of what the field does, the rule its value must follow, and
 * the error when it does not, all visible and all tied to the control (`aria-describedby`). `children` gets
 * the props to spread on the control.
 */
export function Field({ label, description, constraint, error, children, optional }: {
  label: ReactNode;
  description?: ReactNode;
  constraint?: ReactNode;
  error?: ReactNode;
  optional?: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const describedBy = [description ? `${id}-d` : '', constraint ? `${id}-c` : '', error ? `${id}-e` : ''].filter(Boolean).join(' ');
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
        {optional ? <span className="field__optional"> {optional}</span> : null}
      </label>
      {description ? (
        <p className="field__description" id={`${id}-d`}>
          {description}
        </p>
      ) : null}
      {children({ id, ...(describedBy ? { 'aria-describedby': describedBy } : {}), ...(error ? { 'aria-invalid': true as const } : {}) })}
      {constraint ? (
        <p className="field__constraint" id={`${id}-c`}>
          {constraint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={`${id}-e`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
