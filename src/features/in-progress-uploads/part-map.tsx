import { useEffect, useMemo, useRef } from 'react';
import { useI18n } from '../../i18n/i18n.tsx';
import { countInRanges, formatRanges, missingRanges, presentRanges } from './part-scan.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

const MAP_WIDTH = 640;
const PRESENT = '#2e7d32';
const MISSING = '#c62828';
/** Gap ranges spelled out in the text summary; the rest is counted. */
const MAX_LISTED_RANGES = 40;

/**
 * Present parts and gaps of one upload. One canvas cell per part number (10,000 parts = one draw of the
 * runs, no DOM per part). The picture is decorative for assistive technology: the caption states the same
 * facts (counts and every gap) as text, which also makes them copyable.
 */
export function PartMap({ numbers }: { numbers: Int32Array }) {
  const { t, tp, formatNumber } = useI18n();
  const ref = useRef<HTMLCanvasElement>(null);
  const present = useMemo(() => presentRanges(numbers), [numbers]);
  const missing = useMemo(() => missingRanges(numbers), [numbers]);
  const first = numbers.length > 0 && numbers[0] === 0 ? 0 : 1;
  const last = present.at(-1)?.to ?? 0;
  const cellCount = numbers.length === 0 ? 0 : last - first + 1;
  const cell = cellCount <= 500 ? 12 : cellCount <= 2500 ? 8 : 5;
  const columns = Math.max(1, Math.floor(MAP_WIDTH / cell));
  const rows = Math.ceil(cellCount / columns);

  useEffect(() => {
    const canvas = ref.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    context.clearRect(0, 0, canvas.width, canvas.height);
    // Draw run by run: a run is a contiguous span of cells, possibly wrapping over several rows.
    const paint = (from: number, to: number, color: string) => {
      context.fillStyle = color;
      for (let n = from; n <= to; n++) {
        const index = n - first;
        const x = (index % columns) * cell;
        const y = Math.floor(index / columns) * cell;
        context.fillRect(x, y, cell - 1, cell - 1);
      }
    };
    for (const range of present) paint(range.from, range.to, PRESENT);
    for (const range of missing) paint(range.from, range.to, MISSING);
  }, [present, missing, first, columns, cell]);

  const format = (n: number) => formatNumber(n);
  const missingText = formatRanges(missing, format, MAX_LISTED_RANGES);
  const summary =
    numbers.length === 0
      ? t('multipart.map.empty')
      : missing.length === 0
        ? tp('multipart.map.noGaps', numbers.length, { first: format(first), last: format(last) })
        : tp('multipart.map.gaps', numbers.length, {
            count: numbers.length,
            first: format(first),
            last: format(last),
            missingCount: countInRanges(missing),
            missing: missingText.text + (missingText.omitted > 0 ? ` ${tp('multipart.map.moreRanges', missingText.omitted)}` : ''),
          });

  return (
    <figure className="part-map">
      {cellCount > 0 ? (
        <canvas ref={ref} className="part-map__canvas" width={columns * cell} height={rows * cell} aria-hidden="true" />
      ) : null}
      <figcaption>
        <p data-testid="part-map-summary">{summary}</p>
        {numbers.length > 0 && first !== 0 ? (
          <details className="part-map__note" data-testid="part-map-zero-note">
            <summary>{t('multipart.partNumbering')}</summary>
            <p>{t('multipart.map.noPartZero')}</p>
          </details>
        ) : null}
        {cellCount > 0 ? (
          <p className="part-map__legend" aria-hidden="true">
            <span className="part-map__swatch" style={{ background: PRESENT }} /> {t('multipart.map.present')}{' '}
            <span className="part-map__swatch" style={{ background: MISSING }} /> {t('multipart.map.missing')}
          </p>
        ) : null}
      </figcaption>
    </figure>
  );
}
