/**
 * A progress bar of fixed height: a native <progress> (its value is announced), styled as a thin track.
 * Without `value` it shows work whose amount is not known yet.
 */
export function ProgressBar({ value, max = 1, label, valueText, tone = 'busy' }: { value?: number | undefined; max?: number; label: string; valueText?: string; tone?: 'busy' | 'ok' | 'danger' }) {
  return <progress className={`progress progress--${tone}`} aria-label={label} max={max} {...(value === undefined ? {} : { value })} {...(valueText === undefined ? {} : { 'aria-valuetext': valueText })} />;
}
