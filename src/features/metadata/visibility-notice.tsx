import { useId } from 'react';
import { CUSTOM_METADATA_PREFIX } from '../../api/protocol/headers.ts';
import { Loading } from '../../components/spinner.tsx';
import { useCorsFix } from '../../hooks/use-cors-fix.ts';
import { useI18n, type MessageKey } from '../../i18n/i18n.tsx';
import type { SaveBlock, VersionGuard } from '../../api/metadata/save.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

/**
 * Why a metadata save cannot run yet, or what guards it. A hidden standard header always blocks; hidden
 * custom keys can be acknowledged only by naming exactly which keys the console can see
 * (`allowAcknowledge`: the single editor, where the user can know one object). The one-click fix
 * applies the console's CORS rule to the bucket (`onFixed` lets the caller re-read the object).
 */
export function SaveSafetyNotice({ block, bucket, allowAcknowledge, acknowledged, onAcknowledge, onFixed }: {
  block: SaveBlock | null;
  bucket: { zone: string; name: string };
  allowAcknowledge: boolean;
  acknowledged: boolean;
  onAcknowledge: (value: boolean) => void;
  onFixed?: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  if (block === null) return null;
  if (block.kind === 'checking') return <Loading label={t('metadata.visibility.checking')} />;
  if (block.kind === 'no-guard') {
    return (
      <div className="notice notice--error" role="alert" data-testid="visibility-warning">
        <p>{t('metadata.visibility.noGuard')}</p>
        <CorsFix bucket={bucket} {...(onFixed ? { onFixed } : {})} />
      </div>
    );
  }
  if (block.kind === 'large-copy-hidden') {
    return (
      <div className="notice notice--error" role="alert" data-testid="visibility-warning">
        <p>{t('metadata.visibility.largeCopyHidden')}</p>
        <ul className="hidden-headers" aria-label={t('metadata.visibility.hiddenList')}>
          {block.headers.map((name) => (
            <li key={name}>
              <code>{name}</code>
            </li>
          ))}
        </ul>
        <CorsFix bucket={bucket} {...(onFixed ? { onFixed } : {})} />
      </div>
    );
  }
  const { hidden } = block;
  const { standard } = hidden;
  const customOnly = standard.length === 0 && hidden.custom !== null;
  const visibleKeys = hidden.custom?.exposedKeys.map((k) => CUSTOM_METADATA_PREFIX + k).join(', ') ?? '';
  return (
    <div className={`notice ${customOnly ? 'notice--warn' : 'notice--error'}`} role="alert" data-testid="visibility-warning">
      <p>{t('metadata.visibility.blocked')}</p>
      <ul className="hidden-headers" aria-label={t('metadata.visibility.hiddenList')}>
        {standard.map((name) => (
          <li key={name}>
            <code>{name}</code>
          </li>
        ))}
        {hidden.custom ? (
          <li>
            <code>{CUSTOM_METADATA_PREFIX}*</code>{' '}
            {hidden.custom.exposedKeys.length > 0
              ? t('metadata.visibility.customExcept', { keys: visibleKeys })
              : t('metadata.visibility.customAll')}
          </li>
        ) : null}
      </ul>
      <p>{t('metadata.visibility.fix')}</p>
      <CorsFix bucket={bucket} {...(onFixed ? { onFixed } : {})} />
      {customOnly && allowAcknowledge ? (
        <p>
          <input id={id} type="checkbox" checked={acknowledged} onChange={(e) => onAcknowledge(e.target.checked)} />{' '}
          <label htmlFor={id}>
            {hidden.custom && hidden.custom.exposedKeys.length > 0
              ? t('metadata.visibility.ackSome', { keys: visibleKeys })
              : t('metadata.visibility.ackNone')}
          </label>
        </p>
      ) : null}
    </div>
  );
}

function CorsFix({ bucket, onFixed }: { bucket: { zone: string; name: string }; onFixed?: () => void }) {
  const { t } = useI18n();
  const fix = useCorsFix(bucket);
  return (
    <div className="notice__actions">
      <button
        type="button"
        className="button"
        disabled={fix.isPending || fix.isSuccess}
        // Not mutate's own onSuccess: the applied rule can make this notice (and so this button) go away before
        // that callback runs, and a callback of an unmounted observer never fires; the re-read must still happen.
        onClick={() => void fix.mutateAsync(window.location.origin).then(() => onFixed?.(), () => undefined)}
      >
        {fix.isPending ? t('cors.applying') : t('cors.apply', { bucket: bucket.name })}
      </button>
      {fix.isSuccess ? <output className="status-line">{t('metadata.visibility.fixed')}</output> : null}
      {fix.isError ? <p className="field-error">{t('cors.applyFailed')} {fix.error instanceof Error ? fix.error.message : ''}</p> : null}
    </div>
  );
}

/** One line under Review saying how the save is protected against another client's change. */
export function GuardNote({ guard, etagHidden }: { guard: VersionGuard; etagHidden: boolean }) {
  const { t } = useI18n();
  if (guard.kind === 'none') return null;
  return (
    <p className="field-hint" data-testid="guard-note">
      {guard.kind === 'last-modified' ? t('metadata.guard.lastModified', { date: guard.lastModified }) : t('metadata.guard.etagOnly')}
      {etagHidden ? ` ${t('metadata.guard.etagHidden')}` : ''}
    </p>
  );
}

/** The sentence that explains a block, for a failure shown after the fact (a bulk row, a refused save). */
export function blockMessageKey(block: SaveBlock): MessageKey {
  switch (block.kind) {
    case 'no-guard':
      return 'metadata.visibility.noGuard';
    case 'large-copy-hidden':
      return 'metadata.visibility.largeCopyHidden';
    case 'checking':
      return 'metadata.visibility.checking';
    case 'hidden-headers':
      return 'metadata.visibility.blocked';
  }
}
