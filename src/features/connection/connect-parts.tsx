import { useId } from 'react';
import type { Verdict } from '../../api/service/check.ts';
import { CorsHelp } from '../../components/cors-help-lazy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import type { Session } from '../../hooks/session.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { recentSecret, type RecentConnection } from './recent-connections.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/connect.ts';

/** A connection check asked for: the session to check, and whether to remember it once it passes. */
export interface CheckRequest {
  session: Session;
  remember: boolean;
}

/** What a connection check found, and the session it checked. */
export type CheckResult = CheckRequest & { verdict: Verdict };

export type OkVerdict = Extract<Verdict, { kind: 'ok' | 'ok-bucket' | 'ok-anonymous' }>;

export function isOk(verdict: Verdict): verdict is OkVerdict {
  return verdict.kind === 'ok' || verdict.kind === 'ok-bucket' || verdict.kind === 'ok-anonymous';
}

/**
 * A check that did not let the console in, and why. (A check that did goes straight into the console, with
 * what it found in a toast: see okMessage.)
 */
export function VerdictView({ result }: { result: CheckResult }) {
  const { t } = useI18n();
  const { verdict, session } = result;
  const bucket = session.bucket ? { zone: session.bucket.zone, name: session.bucket.name } : undefined;
  if (isOk(verdict)) return null;
  if (verdict.kind === 'credentials') {
    return (
      <div data-verdict="credentials">
        <ErrorNotice error={verdict.error} title={t('connect.verdict.credentials', { code: verdict.error.code })} />
      </div>
    );
  }
  if (verdict.kind === 'network') {
    const origin = verdict.error.requestOrigin;
    if (verdict.reason === 'cors') {
      return (
        <div data-verdict="network" data-reason="cors">
          <ErrorNotice error={verdict.error} title={t('connect.verdict.network', { origin })} corsHelp={<CorsHelp connection={session.connection} {...(bucket ? { bucket } : {})} />} />
        </div>
      );
    }
    const unreachable = verdict.reason === 'unreachable';
    return (
      <div className="notice notice--error" role="alert" data-verdict="network" data-reason={verdict.reason}>
        <h2>{unreachable ? t('connect.verdict.unreachable', { origin }) : t('connect.verdict.mixedContent', { origin })}</h2>
        {unreachable ? <p>{t('connect.verdict.unreachableHelp')}</p> : null}
        <dl>
          <dt>{t('connect.verdict.reasonCode')}</dt>
          <dd>
            <code>{unreachable ? 'endpoint_unreachable' : 'mixed_content_blocked'}</code>
          </dd>
        </dl>
      </div>
    );
  }
  return (
    <div data-verdict="other">
      <ErrorNotice error={verdict.error} title={t('connect.verdict.other')} />
    </div>
  );
}

export type Translate = ReturnType<typeof useI18n>['t'];

export function recentLabel(entry: RecentConnection, t: Translate): string {
  let host = entry.endpoint;
  try {
    host = new URL(entry.endpoint).host;
  } catch {
    // Stored as typed: shown as it is.
  }
  const who = entry.kind === 'anonymous' ? t('connect.recent.anonymous') : entry.accessKeyId;
  return `${who} @ ${host}${entry.bucket ? `/${entry.bucket}` : ''}`;
}

/** The connections this browser remembers (without their secrets), each to fill the form again or forget. */
export function RecentList({ entries, onUse, onForget }: {
  entries: readonly RecentConnection[];
  onUse: (entry: RecentConnection) => void;
  onForget: (entry: RecentConnection) => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  return (
    <section className="connect__recent" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('connect.recent.title')}</h2>
      <p className="field-hint">{t('connect.recent.hint')}</p>
      <ul>
        {entries.map((entry) => {
          const label = recentLabel(entry, t);
          const kept = recentSecret(entry.id) !== '';
          return (
            <li key={entry.id}>
              <span className="connect__recent-label">
                <span className="connect__recent-name">{label}</span>
                <span className="field-hint">
                  {entry.style === 'path' ? t('connect.recent.path') : t('connect.recent.virtualHost')}
                  {entry.proxy ? ` · ${entry.proxy}` : ''}
                  {` · ${entry.zones.join(', ')}`}
                  {kept ? ` · ${t('connect.recent.withSecret')}` : ''}
                </span>
              </span>
              <button type="button" className="button button--small" aria-label={t('connect.recent.useLabel', { label })} onClick={() => onUse(entry)}>
                {t('connect.recent.use')}
              </button>
              <button type="button" className="button button--small" aria-label={t('connect.recent.forgetLabel', { label })} onClick={() => onForget(entry)}>
                {t('connect.recent.forget')}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** What a successful check found, in words: shown in a toast as the console opens. */
export function okMessage(verdict: OkVerdict, t: Translate, tp: ReturnType<typeof useI18n>['tp']): string {
  return verdict.kind === 'ok'
    ? tp('connect.verdict.ok', verdict.buckets)
    : verdict.kind === 'ok-bucket'
      ? t('connect.verdict.listFailedBucketOk', { bucket: verdict.bucket })
      : t('connect.verdict.okAnonymous', { bucket: verdict.bucket });
}
