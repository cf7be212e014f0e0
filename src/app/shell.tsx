import { Suspense, type ReactNode } from 'react';
import { DemoBadge } from '../components/demo-badge.tsx';
import { LanguageSwitcher } from '../components/language-switcher.tsx';
import { Loading } from '../components/spinner.tsx';
import { useSession } from '../hooks/session.ts';
import { useI18n } from '../i18n/i18n.tsx';
import { Link } from '../lib/router.tsx';

export function Shell({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const { session, switchToDemo, switchToEndpoint, disconnect } = useSession();
  const endpointLabel = session && session.mode !== 'demo' ? new URL(session.connection.endpoint).host : '';

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="topbar">
        <p className="topbar__title">
          <Link to="/">{t('app.title')}</Link>
        </p>
        {session?.mode === 'demo' ? <DemoBadge /> : null}
        {session?.mode === 'endpoint' ? (
          <span className="topbar__mode">{t('app.mode.endpoint', { endpoint: endpointLabel })}</span>
        ) : null}
        {session?.mode === 'anonymous' ? (
          <span className="topbar__mode">{t('app.mode.anonymous', { endpoint: endpointLabel })}</span>
        ) : null}
        <span className="topbar__spacer" />
        <nav aria-label={t('app.nav')} className="topbar__nav">
          {session?.mode === 'demo' ? (
            <button type="button" className="button button--small" onClick={switchToEndpoint}>
              {t('app.connectEndpoint')}
            </button>
          ) : (
            <>
              {session ? (
                <button type="button" className="button button--small" onClick={disconnect}>
                  {t('app.disconnect')}
                </button>
              ) : null}{' '}
              <button type="button" className="button button--small" onClick={switchToDemo}>
                {t('app.backToDemo')}
              </button>
            </>
          )}
        </nav>
        <LanguageSwitcher />
      </header>
      <main id="main" className="content" tabIndex={-1}>
        <Suspense fallback={<Loading label={t('app.loading')} />}>
          {children}
        </Suspense>
      </main>
    </div>
  );
}
