import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm, useWatch, type FieldError } from 'react-hook-form';
import { useLocation, useNavigate } from '../../lib/router.tsx';
import { CorsHelp } from '../../components/cors-help-lazy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { bucketPath, safeNextPath } from '../../hooks/browse-location.ts';
import { useSession, type Session } from '../../hooks/session.ts';
import { isMessageKey, useI18n } from '../../i18n/i18n.tsx';
import type { Verdict } from './check-connection.ts';
import { connectFormSchema, DEFAULT_FORM, formFromRecent, sessionFromForm, suggestZoneInHost, type ConnectFormValues } from './connect-form-schema.ts';
import { forgetRecent, loadRecent, recentSecret, rememberRecent, type RecentConnection } from './recent-connections.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import '../../styles/connect.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/connect.ts';

interface CheckResult {
  session: Session;
  verdict: Verdict;
  remember: boolean;
}

export function ConnectPage() {
  const { t } = useI18n();
  const { connect, serve } = useSession();
  const navigate = useNavigate();
  const [recent, setRecent] = useState<RecentConnection[]>(() => loadRecent());
  // The last connection fills the form (a reload in endpoint mode offers it again); its secret only
  // when the user kept it in this tab.
  const [filledFrom, setFilledFrom] = useState<{ entry: RecentConnection; secret: string } | null>(() => {
    const last = recent[0];
    return last ? { entry: last, secret: recentSecret(last.id) } : null;
  });
  const form = useForm<ConnectFormValues>({
    resolver: zodResolver(connectFormSchema),
    defaultValues: filledFrom
      ? formFromRecent(filledFrom.entry, filledFrom.secret)
      : serve ? { ...DEFAULT_FORM, endpoint: serve.endpoint, proxy: serve.proxyBase } : DEFAULT_FORM,
    mode: 'onSubmit',
  });
  const { register, handleSubmit, formState, setValue, control, reset, setFocus } = form;
  // The zone-in-host choice of a remembered connection is the user's, not a suggestion to override.
  const keptEndpoint = useRef<string | null>(filledFrom?.entry.endpoint ?? null);
  const kind = useWatch({ control, name: 'kind' });
  const endpoint = useWatch({ control, name: 'endpoint' });
  const zones = useWatch({ control, name: 'zones' });
  const ids = { endpoint: useId(), proxy: useId(), copyLimit: useId(), zones: useId(), ak: useId(), sk: useId(), bucket: useId(), zoneInHost: useId(), remember: useId() };

  // Follow the endpoint with a sensible default until the user touches the checkbox themselves.
  useEffect(() => {
    if (formState.dirtyFields.zoneInHost) return;
    if (keptEndpoint.current !== null && keptEndpoint.current === endpoint) return;
    keptEndpoint.current = null;
    const suggestion = suggestZoneInHost(endpoint);
    if (suggestion !== undefined) setValue('zoneInHost', suggestion);
  }, [endpoint, formState.dirtyFields.zoneInHost, setValue]);

  const check = useMutation({
    mutationFn: async (values: ConnectFormValues): Promise<CheckResult> => {
      const session = sessionFromForm(values);
      // The check's API calls (and the object operations under them) load on first use, not with the form.
      const { checkConnection } = await import('./check-connection.ts');
      return { session, verdict: await checkConnection(session), remember: values.remember };
    },
    onSuccess: ({ session, verdict, remember }) => {
      if (verdict.kind === 'ok' || verdict.kind === 'ok-bucket' || verdict.kind === 'ok-anonymous') {
        rememberRecent(session, { remember });
        setRecent(loadRecent());
        connect(session, { remember });
      }
    },
  });

  const useRecent = (entry: RecentConnection) => {
    const secret = recentSecret(entry.id);
    keptEndpoint.current = entry.endpoint;
    reset(formFromRecent(entry, secret));
    setFilledFrom({ entry, secret });
    check.reset();
    setFocus(entry.kind === 'keys' && secret === '' ? 'secretAccessKey' : 'endpoint');
  };
  const forget = (entry: RecentConnection) => {
    forgetRecent(entry.id);
    setRecent(loadRecent());
    if (filledFrom?.entry.id === entry.id) setFilledFrom(null);
  };

  const openButton = useRef<HTMLButtonElement>(null);
  const verdictBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (check.data && isOk(check.data.verdict)) openButton.current?.focus();
    // A failed check is reported below the long form: bring the report into view.
    else if (check.data || check.error) verdictBox.current?.scrollIntoView?.({ block: 'nearest' });
  }, [check.data, check.error]);

  const { search } = useLocation();
  const open = () => {
    const result = check.data;
    if (!result) return;
    const { session, verdict } = result;
    const next = safeNextPath(search);
    if (next) navigate(next);
    else if (verdict.kind === 'ok') navigate('/');
    else if (session.bucket) navigate(bucketPath(session.bucket.zone, session.bucket.name));
  };

  const fieldError = (error: FieldError | undefined, id: string) =>
    error?.message ? (
      <p id={`${id}-error`} className="field-error">
        {isMessageKey(error.message) ? t(error.message) : error.message}
      </p>
    ) : null;
  const describedBy = (id: string, hasHint: boolean, error: FieldError | undefined) =>
    [hasHint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

  const { errors } = formState;
  const firstZone = zones.split(/[\s,]+/).find((z) => z.trim() !== '') ?? '';

  return (
    <section className="connect page-narrow">
      <h1>{t('connect.title')}</h1>
      <p>{t('connect.intro')}</p>
      {serve ? <p className="notice">{t('connect.servedByProxy', { endpoint: serve.endpoint })}</p> : null}
      {recent.length > 0 ? <RecentList entries={recent} onUse={useRecent} onForget={forget} /> : null}
      {filledFrom ? (
        <p className="notice" data-testid="filled-from-recent">
          {filledFrom.secret !== '' || filledFrom.entry.kind === 'anonymous'
            ? t('connect.recent.filledWithSecret', { label: recentLabel(filledFrom.entry, t) })
            : t('connect.recent.filled', { label: recentLabel(filledFrom.entry, t) })}
        </p>
      ) : null}
      <form onSubmit={handleSubmit((values) => check.mutate(values))} noValidate aria-label={t('connect.title')}>
        <fieldset>
          <legend>{t('connect.kind')}</legend>
          <label className="choice">
            <input type="radio" value="keys" {...register('kind')} /> {t('connect.kind.keys')}
          </label>
          <label className="choice">
            <input type="radio" value="anonymous" {...register('kind')} /> {t('connect.kind.anonymous')}
          </label>
        </fieldset>

        <div className="field">
          <label htmlFor={ids.endpoint}>{t('connect.endpoint')}</label>
          <input
            id={ids.endpoint}
            type="url"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            placeholder="https://qingstor.com"
            aria-invalid={errors.endpoint ? true : undefined}
            aria-describedby={describedBy(ids.endpoint, true, errors.endpoint)}
            {...register('endpoint')}
          />
          <p id={`${ids.endpoint}-hint`} className="field-hint">
            {t('connect.endpointHint')}
          </p>
          {fieldError(errors.endpoint, ids.endpoint)}
        </div>

        <div className="field">
          <label htmlFor={ids.proxy}>{t('connect.proxy')}</label>
          <input
            id={ids.proxy}
            spellCheck={false}
            autoComplete="off"
            placeholder="/_qs"
            aria-invalid={errors.proxy ? true : undefined}
            aria-describedby={describedBy(ids.proxy, true, errors.proxy)}
            {...register('proxy')}
          />
          <p id={`${ids.proxy}-hint`} className="field-hint">
            {t('connect.proxyHint')}
          </p>
          {fieldError(errors.proxy, ids.proxy)}
        </div>

        <div className="field">
          <label htmlFor={ids.copyLimit}>{t('connect.copyLimit')}</label>
          <input
            id={ids.copyLimit}
            inputMode="numeric"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={errors.copyLimit ? true : undefined}
            aria-describedby={describedBy(ids.copyLimit, true, errors.copyLimit)}
            {...register('copyLimit')}
          />
          <p id={`${ids.copyLimit}-hint`} className="field-hint">
            {t('connect.copyLimitHint')}
          </p>
          {fieldError(errors.copyLimit, ids.copyLimit)}
        </div>

        <div className="field">
          <label htmlFor={ids.zones}>{t('connect.zones')}</label>
          <input
            id={ids.zones}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={errors.zones ? true : undefined}
            aria-describedby={describedBy(ids.zones, true, errors.zones)}
            {...register('zones')}
          />
          <p id={`${ids.zones}-hint`} className="field-hint">
            {t('connect.zonesHint')}
          </p>
          {fieldError(errors.zones, ids.zones)}
        </div>

        <div className="field field--check">
          <input id={ids.zoneInHost} type="checkbox" aria-describedby={`${ids.zoneInHost}-hint`} {...register('zoneInHost')} />
          <label htmlFor={ids.zoneInHost}>{t('connect.zoneInHost')}</label>
          <p id={`${ids.zoneInHost}-hint`} className="field-hint">
            {t('connect.zoneInHostHint')}
          </p>
        </div>

        <fieldset>
          <legend>{t('connect.style')}</legend>
          <label className="choice">
            <input type="radio" value="path" {...register('style')} /> {t('connect.style.path')}
          </label>
          <label className="choice">
            <input type="radio" value="virtual-host" {...register('style')} /> {t('connect.style.virtualHost')}
          </label>
        </fieldset>

        {kind === 'keys' ? (
          <>
            <div className="field">
              <label htmlFor={ids.ak}>{t('connect.accessKeyId')}</label>
              <input
                id={ids.ak}
                autoComplete="username"
                spellCheck={false}
                aria-invalid={errors.accessKeyId ? true : undefined}
                aria-describedby={describedBy(ids.ak, false, errors.accessKeyId)}
                {...register('accessKeyId')}
              />
              {fieldError(errors.accessKeyId, ids.ak)}
            </div>
            <div className="field">
              <label htmlFor={ids.sk}>{t('connect.secretAccessKey')}</label>
              <input
                id={ids.sk}
                type="password"
                autoComplete="current-password"
                spellCheck={false}
                aria-invalid={errors.secretAccessKey ? true : undefined}
                aria-describedby={describedBy(ids.sk, true, errors.secretAccessKey)}
                {...register('secretAccessKey')}
              />
              <p id={`${ids.sk}-hint`} className="field-hint">
                {t('connect.secretNote')}
              </p>
              {fieldError(errors.secretAccessKey, ids.sk)}
            </div>
          </>
        ) : null}

        <div className="field">
          <label htmlFor={ids.bucket}>{t('connect.bucket')}</label>
          <input
            id={ids.bucket}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={errors.bucket ? true : undefined}
            aria-describedby={describedBy(ids.bucket, true, errors.bucket)}
            {...register('bucket')}
          />
          <p id={`${ids.bucket}-hint`} className="field-hint">
            {kind === 'keys' ? t('connect.bucketHintKeys') : t('connect.bucketHintAnonymous')}{' '}
            {firstZone ? t('connect.bucketZone', { zone: firstZone.trim() }) : null}
          </p>
          {fieldError(errors.bucket, ids.bucket)}
        </div>

        <div className="field field--check">
          <input id={ids.remember} type="checkbox" aria-describedby={`${ids.remember}-hint`} {...register('remember')} />
          <label htmlFor={ids.remember}>{t('connect.remember')}</label>
          <p id={`${ids.remember}-hint`} className="field-hint">
            {t('connect.rememberHint')}
          </p>
        </div>

        <button type="submit" className="button button--primary" disabled={check.isPending}>
          {check.isPending ? t('connect.checking') : t('connect.submit')}
        </button>
      </form>

      <div ref={verdictBox} className="connect__verdict" aria-live="polite">
        {check.isError ? <ErrorNotice error={check.error} /> : null}
        {check.data ? <VerdictView result={check.data} onOpen={open} openButton={openButton} /> : null}
      </div>
    </section>
  );
}

type OkVerdict = Extract<Verdict, { kind: 'ok' | 'ok-bucket' | 'ok-anonymous' }>;

function isOk(verdict: Verdict): verdict is OkVerdict {
  return verdict.kind === 'ok' || verdict.kind === 'ok-bucket' || verdict.kind === 'ok-anonymous';
}

function VerdictView({ result, onOpen, openButton }: {
  result: CheckResult;
  onOpen: () => void;
  openButton: React.RefObject<HTMLButtonElement | null>;
}) {
  const { t, tp } = useI18n();
  const { verdict, session } = result;
  const bucket = session.bucket ? { zone: session.bucket.zone, name: session.bucket.name } : undefined;
  if (isOk(verdict)) {
    const text =
      verdict.kind === 'ok'
        ? tp('connect.verdict.ok', verdict.buckets)
        : verdict.kind === 'ok-bucket'
          ? t('connect.verdict.listFailedBucketOk', { bucket: verdict.bucket })
          : t('connect.verdict.okAnonymous', { bucket: verdict.bucket });
    return (
      <div className="notice notice--ok" data-verdict={verdict.kind}>
        <output className="verdict__text">{text}</output>
        <button ref={openButton} type="button" className="button button--primary" onClick={onOpen}>
          {t('connect.open')}
        </button>
      </div>
    );
  }
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

type Translate = ReturnType<typeof useI18n>['t'];

function recentLabel(entry: RecentConnection, t: Translate): string {
  let host = entry.endpoint;
  try {
    host = new URL(entry.endpoint).host;
  } catch {
    // Stored as typed: shown as it is.
  }
  const who = entry.kind === 'anonymous' ? t('connect.recent.anonymous') : entry.accessKeyId;
  return `${who} @ ${host}${entry.bucket ? `/${entry.bucket}` : ''}`;
}

function RecentList({ entries, onUse, onForget }: {
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
