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
 *
 * `layout="inline"` puts the label in a column of its own (a form of several short fields, such as the
 * metadata headers): the control comes first, with `aside` (a preset list, a builder) beside it, and the
 * description and the rule under it. `notice` says what the control cannot show (a value hidden from the
 * browser), right under the control.
 */
export function Field({ label, description, constraint, error, children, optional, layout = 'stacked', aside, notice, labelClassName, testId }: {
  label: ReactNode;
  description?: ReactNode;
  constraint?: ReactNode;
  error?: ReactNode;
  optional?: ReactNode;
  layout?: 'stacked' | 'inline';
  aside?: ReactNode;
  notice?: ReactNode;
  labelClassName?: string;
  testId?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const describedBy = [notice ? `${id}-n` : '', description ? `${id}-d` : '', constraint ? `${id}-c` : '', error ? `${id}-e` : ''].filter(Boolean).join(' ');
  const control = children({ id, ...(describedBy ? { 'aria-describedby': describedBy } : {}), ...(error ? { 'aria-invalid': true as const } : {}) });
  const labelElement = (
    <label className={['field__label', labelClassName ?? ''].filter(Boolean).join(' ')} htmlFor={id}>
      {label}
      {optional ? <span className="field__optional"> {optional}</span> : null}
    </label>
  );
  const descriptionElement = description ? (
    <p className="field__description" id={`${id}-d`}>
      {description}
    </p>
  ) : null;
  const rest = (
    <>
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
    </>
  );
  const noticeElement = notice ? (
    <p className="field__notice" id={`${id}-n`}>
      {notice}
    </p>
  ) : null;
  if (layout === 'inline') {
    return (
      <div className={`field field--inline${error ? ' field--invalid' : ''}`} data-testid={testId}>
        {labelElement}
        <div className="field__body">
          <div className="field__control">
            {control}
            {aside ? <div className="field__aside">{aside}</div> : null}
          </div>
          {noticeElement}
          {descriptionElement}
          {rest}
        </div>
      </div>
    );
  }
  return (
    <div className={`field${error ? ' field--invalid' : ''}`} data-testid={testId}>
      {labelElement}
      {descriptionElement}
      {control}
      {aside}
      {noticeElement}
      {rest}
    </div>
  );
}
