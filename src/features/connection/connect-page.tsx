import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { useForm, useWatch, type FieldError } from 'react-hook-form';
import { useLocation, useNavigate } from '../../lib/router.tsx';
import { CorsHelp } from '../../components/cors-help-lazy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { bucketPath, safeNextPath } from '../../hooks/browse-location.ts';
import { useSession, type Session } from '../../hooks/session.ts';
import { isMessageKey, useI18n } from '../../i18n/i18n.tsx';
import type { Verdict } from './check-connection.ts';
import { connectFormSchema, DEFAULT_FORM, sessionFromForm, suggestZoneInHost, type ConnectFormValues } from './connect-form-schema.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import '../../styles/connect.css';

interface CheckResult {
  session: Session;
  verdict: Verdict;
  remember: boolean;
}

export function ConnectPage() {
  const { t } = useI18n();
  const { connect, serve } = useSession();
  const navigate = useNavigate();
  const form = useForm<ConnectFormValues>({
    resolver: zodResolver(connectFormSchema),
    defaultValues: serve ? { ...DEFAULT_FORM, endpoint: serve.endpoint, proxy: serve.proxyBase } : DEFAULT_FORM,
    mode: 'onSubmit',
  });
  const { register, handleSubmit, formState, setValue, control } = form;
  const kind = useWatch({ control, name: 'kind' });
  const endpoint = useWatch({ control, name: 'endpoint' });
  const zones = useWatch({ control, name: 'zones' });
  const ids = { endpoint: useId(), proxy: useId(), copyLimit: useId(), zones: useId(), ak: useId(), sk: useId(), bucket: useId(), zoneInHost: useId(), remember: useId() };

  // Follow the endpoint with a sensible default until the user touches the checkbox themselves.
  useEffect(() => {
    if (formState.dirtyFields.zoneInHost) return;
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
      if (verdict.kind === 'ok' || verdict.kind === 'ok-bucket' || verdict.kind === 'ok-anonymous') connect(session, { remember });
    },
  });

  const openButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (check.data && isOk(check.data.verdict)) openButton.current?.focus();
  }, [check.data]);

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

      <div className="connect__verdict" aria-live="polite">
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
  const { t } = useI18n();
  const { verdict, session } = result;
  const bucket = session.bucket ? { zone: session.bucket.zone, name: session.bucket.name } : undefined;
  if (isOk(verdict)) {
    const text =
      verdict.kind === 'ok'
        ? t('connect.verdict.ok', { count: verdict.buckets })
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
    return (
      <div data-verdict="network">
        <ErrorNotice error={verdict.error} title={t('connect.verdict.network')} corsHelp={<CorsHelp connection={session.connection} {...(bucket ? { bucket } : {})} />} />
      </div>
    );
  }
  return (
    <div data-verdict="other">
      <ErrorNotice error={verdict.error} title={t('connect.verdict.other')} />
    </div>
  );
}
