import { useI18n } from '../../../i18n/i18n.tsx';
import { indicatorRate } from './rate-format.ts';
import { useUploadTotals } from './upload-hooks.ts';

/** Overall speed and time left of the session's transfers, beside the header's upload indicator. */
export function IndicatorRate({ scope }: { scope: string }) {
  const { t } = useI18n();
  const totals = useUploadTotals(scope);
  if (!totals) return null;
  return (
    <span className="upload-indicator__rate" data-testid="upload-indicator-rate">
      {indicatorRate(totals, t)}
    </span>
  );
}
