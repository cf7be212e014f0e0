import { useId, useState, type ReactNode } from 'react';

/**
 * One whole-number field with its submit button: the parts-per-page limit, "Go to part" and the clean-up
 * rule's days. The error shows after a submit that `parse` refuses; a new `value` from the caller replaces
 * what was typed. `children` follow the submit button (e.g. Cancel).
 */
export function NumberForm({ className, label, value, min, max, submitLabel, submitClassName = 'button', submitDisabled, errorText, parse, onSubmit, children }: {
  className: string;
  label: string;
  value: string;
  min: number;
  max: number;
  submitLabel: string;
  submitClassName?: string;
  submitDisabled?: boolean;
  errorText: string;
  /** The number the text stands for, or null when it is refused. */
  parse: (text: string) => number | null;
  onSubmit: (value: number) => void;
  children?: ReactNode;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  const [invalid, setInvalid] = useState(false);
  const [shownValue, setShownValue] = useState(value);
  if (shownValue !== value) {
    setShownValue(value);
    setText(value);
    setInvalid(false);
  }
  return (
    <form
      className={className}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = parse(text);
        setInvalid(parsed === null);
        if (parsed !== null) onSubmit(parsed);
      }}
    >
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
      />
      <button type="submit" className={submitClassName} disabled={submitDisabled}>
        {submitLabel}
      </button>
      {children}
      {invalid ? (
        <p id={`${id}-error`} className="field-error">
          {errorText}
        </p>
      ) : null}
    </form>
  );
}

/** A whole number written in digits only, from `min` to `max`; null otherwise. */
export function wholeNumberIn(text: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}
