import type { ReactNode } from 'react';
import { ApiError, ContractError, NetworkError } from '../api/errors.ts';
import { isMessageKey, useI18n, type I18n } from '../i18n/i18n.tsx';
import { CopyButton } from './copy-button.tsx';

export interface ErrorFacts {
  kind: 'api' | 'network' | 'contract' | 'unexpected';
  code: string;
  status?: number;
  requestId: string;
  explanation: string;
  serverMessage?: string;
  likelyCors: boolean;
}

/** Turns any thrown value into what the user is shown: code, plain words, request id. */
export function describeError(error: unknown, { t }: Pick<I18n, 't'>): ErrorFacts {
  if (error instanceof ApiError) {
    const key = `qs.${error.code}`;
    const explanation = isMessageKey(key)
      ? t(key)
      : error.fromBody
        ? t('error.unknownCode', { code: error.code })
        : t('error.httpOnly', { status: String(error.status) });
    return {
      kind: 'api',
      code: error.code,
      status: error.status,
      requestId: error.requestId,
      explanation,
      ...(error.fromBody && error.message ? { serverMessage: error.message } : {}),
      likelyCors: false,
    };
  }
  if (error instanceof NetworkError) {
    return {
      kind: 'network',
      code: error.likelyCors ? 'network_error_cors' : 'network_error',
      requestId: '',
      explanation: error.likelyCors ? t('error.networkCors') : t('error.network'),
      likelyCors: error.likelyCors,
    };
  }
  if (error instanceof ContractError) {
    return {
      kind: 'contract',
      code: 'unexpected_response',
      status: error.status,
      requestId: error.requestId,
      explanation: t('error.contract', { message: error.message }),
      likelyCors: false,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'unexpected', code: 'client_error', requestId: '', explanation: t('error.unexpected', { message }), likelyCors: false };
}

/**
 * Inline failure report used by every view. `corsHelp` is rendered when the failure looks like a CORS
 * block, so the caller (who knows the bucket) can offer the fix.
 */
export function ErrorNotice({ error, onRetry, corsHelp, title }: {
  error: unknown;
  onRetry?: () => void;
  corsHelp?: ReactNode;
  title?: string;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const facts = describeError(error, i18n);
  return (
    <div className="notice notice--error" role="alert" data-error-code={facts.code}>
      <h2>{title ?? t('error.title')}</h2>
      <p>{facts.explanation}</p>
      <dl>
        <dt>{t('error.code')}</dt>
        <dd>
          <code>{facts.code}</code>
        </dd>
        {facts.status !== undefined ? (
          <>
            <dt>{t('error.status')}</dt>
            <dd>{facts.status}</dd>
          </>
        ) : null}
        <dt>{t('error.requestId')}</dt>
        <dd>
          {facts.requestId ? (
            <>
              <code data-testid="request-id">{facts.requestId}</code>{' '}
              <CopyButton text={facts.requestId} label={t('error.copyRequestId')} />
            </>
          ) : (
            t('error.noRequestId')
          )}
        </dd>
        {facts.serverMessage ? (
          <>
            <dt>{t('error.serverMessage')}</dt>
            <dd>{facts.serverMessage}</dd>
          </>
        ) : null}
      </dl>
      {facts.likelyCors && corsHelp ? corsHelp : null}
      {onRetry ? (
        <div className="notice__actions">
          <button type="button" className="button" onClick={onRetry}>
            {t('common.retry')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
