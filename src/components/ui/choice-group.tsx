import { useId, type ReactNode } from 'react';

export interface Choice<T extends string> {
  value: T;
  label: ReactNode;
  /** One line under the label: what picking it does. */
  description?: ReactNode;
}

/**
 * One choice among a few, all visible (radio buttons): a legend in the look of a field's label, each option
 * with its own line of description. Arrow keys move between options (the browser's radio group).
 */
export function ChoiceGroup<T extends string>({ legend, value, choices, onChange }: {
  legend: ReactNode;
  value: T;
  choices: readonly Choice<T>[];
  onChange: (value: T) => void;
}) {
  const name = useId();
  return (
    <fieldset className="choice-group">
      <legend className="field__label">{legend}</legend>
      {choices.map((choice) => (
        <label className="choice-group__option" key={choice.value}>
          <input type="radio" name={name} value={choice.value} checked={value === choice.value} onChange={() => onChange(choice.value)} />
          <span className="choice-group__text">
            <span>{choice.label}</span>
            {choice.description ? <span className="choice-group__description">{choice.description}</span> : null}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
