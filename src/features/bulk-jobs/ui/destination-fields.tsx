import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { allBucketsQuery } from '../../../api/service/queries.ts';
import { useClient } from '../../../hooks/use-client.ts';
import { useI18n } from '../../../i18n/i18n.tsx';
import { visibleText } from '../../../lib/visible-text.ts';
import { destinationProblem, scopeBase, type JobDestination, type JobScope } from '../engine/types.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/jobs.ts';

export interface DestinationValue {
  bucket: string;
  /** As typed; `destinationOf` adds the trailing "/". */
  folder: string;
  overwrite: 'skip' | 'replace';
}

export function destinationOf(value: DestinationValue): JobDestination {
  const folder = value.folder.trim();
  return { bucket: value.bucket, prefix: folder === '' || folder.endsWith('/') ? folder : `${folder}/` };
}

/** Where a copy or move goes: a bucket of the same zone, a folder in it, and what happens to objects already there. */
export function DestinationFields({ zone, bucket, scope, value, onChange, disabled }: {
  zone: string;
  bucket: string;
  scope: JobScope;
  value: DestinationValue;
  onChange: (value: DestinationValue) => void;
  disabled: boolean;
}) {
  const { t } = useI18n();
  const id = useId();
  const client = useClient();
  const buckets = useQuery(allBucketsQuery(client));
  // QingStor copies and moves within one zone (ref §5.2): the others are not offered.
  const names = (buckets.data ?? []).filter((b) => b.location === zone).map((b) => b.name);
  if (!names.includes(bucket)) names.unshift(bucket);
  const problem = destinationProblem(bucket, scope, destinationOf(value));
  const base = scopeBase(scope);
  return (
    <fieldset disabled={disabled} className="job-destination">
      <legend>{t('jobs.destination.legend')}</legend>
      <div className="field">
        <label htmlFor={`${id}-bucket`}>{t('jobs.destination.bucket')}</label>
        <select id={`${id}-bucket`} value={value.bucket} onChange={(e) => onChange({ ...value, bucket: e.target.value })} aria-describedby={`${id}-zone`}>
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <p id={`${id}-zone`} className="field-hint">{t('jobs.destination.zone', { zone })}</p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-folder`}>{t('jobs.destination.folder')}</label>
        <input
          id={`${id}-folder`}
          className="mono"
          value={value.folder}
          onChange={(e) => onChange({ ...value, folder: e.target.value })}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-folder-hint${problem ? ` ${id}-folder-error` : ''}`}
        />
        <p id={`${id}-folder-hint`} className="field-hint">
          {base === '' ? t('jobs.destination.rootHint') : t('jobs.destination.folderHint', { base: visibleText(base) })}
        </p>
        {problem ? (
          <p id={`${id}-folder-error`} className="field-error" role="alert">
            {t(`jobs.destination.${problem}`)}
          </p>
        ) : null}
      </div>
      <fieldset className="job-choice">
        <legend>{t('jobs.destination.overwrite')}</legend>
        {(['skip', 'replace'] as const).map((choice) => (
          <label key={choice}>
            <input type="radio" name={`${id}-overwrite`} value={choice} checked={value.overwrite === choice} onChange={() => onChange({ ...value, overwrite: choice })} />
            {t(`jobs.destination.${choice}`)}
          </label>
        ))}
      </fieldset>
    </fieldset>
  );
}
