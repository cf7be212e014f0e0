import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm, useWatch, type FieldError } from 'react-hook-form';
import { useLocation, useNavigate } from '../../lib/router.tsx';
import { connectionCheckMutation } from '../../api/service/check-queries.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { toast } from '../../components/toast.tsx';
import { bucketPath, safeNextPath } from '../../hooks/browse-location.ts';
import { useSession } from '../../hooks/session.ts';
import { isMessageKey, useI18n } from '../../i18n/i18n.tsx';
import { connectFormSchema, DEFAULT_FORM, formFromRecent, sessionFromForm, suggestZoneInHost, type ConnectFormValues } from './connect-form-schema.ts';
import { isOk, okMessage, recentLabel, RecentList, VerdictView, type CheckRequest } from './connect-parts.tsx';
import { forgetRecent, loadRecent, recentSecret, rememberRecent, type RecentConnection } from './recent-connections.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import '../../styles/connect.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/connect.ts';

/** Fields that live under "Advanced": a check refused for one of them opens it. */
const ADVANCED_FIELDS: ReadonlyArray<keyof ConnectFormValues> = ['proxy', 'copyLimit', 'zones', 'bucket'];

/**
 * Connect: the endpoint, the access key id and the secret; everything else (anonymous access, a bucket, the
 * proxy, the copy limit, zones, addressing) under "Advanced". A check that succeeds goes straight into the
 * console and says what it found in a toast; one that fails says why here.
 */
export function ConnectPage() {
  const { t, tp } = useI18n();
  const { connect, serve } = useSession();
  const navigate = useNavigate();
  const { search } = useLocation();
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

  const check = useMutation(
    connectionCheckMutation<CheckRequest>(({ session, verdict, remember }) => {
      if (!isOk(verdict)) return;
      rememberRecent(session, { remember });
      setRecent(loadRecent());
      connect(session, { remember });
      toast(okMessage(verdict, t, tp));
      const next = safeNextPath(search);
      if (next) navigate(next);
      else if (verdict.kind === 'ok') navigate('/');
      else if (session.bucket) navigate(bucketPath(session.bucket.zone, session.bucket.name));
    }),
  );
  const [advancedOpen, setAdvancedOpen] = useState(false);

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

  const verdictBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A failed check is reported below the form: bring the report into view.
    if ((check.data && !isOk(check.data.verdict)) || check.error) verdictBox.current?.scrollIntoView?.({ block: 'nearest' });
  }, [check.data, check.error]);

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
      <form onSubmit={handleSubmit((values) => check.mutate({ session: sessionFromForm(values), remember: values.remember }), (refused) => {
        if (ADVANCED_FIELDS.some((name) => refused[name])) setAdvancedOpen(true);
      })} noValidate aria-label={t('connect.title')}>
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

        <div className="field field--check">
          <input id={ids.remember} type="checkbox" aria-describedby={`${ids.remember}-hint`} {...register('remember')} />
          <label htmlFor={ids.remember}>{t('connect.remember')}</label>
          <p id={`${ids.remember}-hint`} className="field-hint">
            {t('connect.rememberHint')}
          </p>
        </div>

        <details className="connect__advanced" open={advancedOpen || kind === 'anonymous'} onToggle={(e) => setAdvancedOpen(e.currentTarget.open)}>
          <summary>{t('connect.advanced')}</summary>
          <p className="field-hint">{t('connect.advancedHint')}</p>
          <div className="connect__advanced-fields">
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

          </div>
        </details>
        <button type="submit" className="button button--primary" disabled={check.isPending}>
          {check.isPending ? t('connect.checking') : t('connect.submit')}
        </button>
      </form>

      <div ref={verdictBox} className="connect__verdict" aria-live="polite">
        {check.isError ? <ErrorNotice error={check.error} /> : null}
        {check.data ? <VerdictView result={check.data} /> : null}
      </div>
    </section>
  );
}
