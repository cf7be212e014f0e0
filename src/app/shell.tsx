import PanelLeft from 'lucide-react/icons/panel-left';
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { usePhoneWidth } from '../hooks/use-phone-width.ts';
import { connectionId } from '../api/connection.ts';
import { DemoBadge } from '../components/demo-badge.tsx';
import { LanguageSwitcher } from '../components/language-switcher.tsx';
import { lazyView } from '../components/lazy-view.tsx';
import { Loading } from '../components/spinner.tsx';
import { ROUTE_PATHS } from '../hooks/browse-location.ts';
import { useSession } from '../hooks/session.ts';
import { useI18n } from '../i18n/i18n.tsx';
import { Link, matchPath, useLocation } from '../lib/router.tsx';
import { demoDataControls } from './demo-backend.ts';
import { UploadIndicator } from '../features/upload-queue/ui/upload-indicator.tsx';
import { AfterFirstScreen } from './first-screen.tsx';
import { pageTitle, usePageTitle } from './page-title.ts';

// The sidebar needs the bucket list's query and schemas, which the first screen may not. It, the theme control,
// the upload indicator and drawer, the damage notice and the toasts load once the first screen is shown
// (AfterFirstScreen, first-screen.tsx): a deep link's first rows do not wait behind their chunks.
const BucketSidebar = lazyView(async () => (await import('./bucket-sidebar.tsx')).BucketSidebar);
const AcrossBuckets = lazyView(async () => (await import('./bucket-sidebar.tsx')).AcrossBuckets, { fallback: 'none' });
// The theme is applied before the first render (main.tsx); the control to change it can arrive a moment later.
const ThemeSwitcher = lazyView(async () => (await import('../components/theme-switcher.tsx')).ThemeSwitcher);
// Uploads start only from the object browser, whose chunk brings the uploads module along; the drawer takes it
// from there rather than adding it to the entry chunk. The header's indicator is small and part of the shell
// (upload-indicator.tsx says why).
const UploadDrawer = lazyView(async () => (await import('../features/upload-queue/ui/upload-drawer.tsx')).UploadDrawer);
// Demo mode only, and only when this start left damaged saved records out: a notice, loaded after the first paint.
const DemoDamageNotice = lazyView(async () => (await import('../components/demo-damage-notice.tsx')).DemoDamageNotice, { fallback: 'none' });
// Bulk jobs (the header's link while one runs, the offer to resume one a reload interrupted) once the page is
// idle: the job host and its journal never compete with a first screen.
const JobsIndicatorSlot = lazyView(async () => (await import('./jobs/jobs-shell.tsx')).JobsIndicatorSlot, { fallback: 'none' });
const JobsResumeSlot = lazyView(async () => (await import('./jobs/jobs-shell.tsx')).JobsResumeSlot, { fallback: 'none' });
// The toasts' live region comes a moment after the first paint (shell-later.tsx).
const ShellLater = lazyView(async () => (await import('./shell-later.tsx')).ShellLater, { fallback: 'none' });

/** False until the browser is first idle after the page loaded (or 2 s passed). */
function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(() => setIdle(true), { timeout: 2000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => setIdle(true), 1000);
    return () => clearTimeout(timer);
  }, []);
  return idle;
}

/** Wide screens start with the bucket sidebar shown; narrow ones (phones) with it hidden. */
function sidebarShownAtStart(): boolean {
  return typeof window.matchMedia !== 'function' || window.matchMedia('(min-width: 60rem)').matches;
}

export function Shell({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const { session, switchToDemo, switchToEndpoint, disconnect } = useSession();
  const location = useLocation();
  usePageTitle(pageTitle(location, t));
  const [sidebarShown, setSidebarShown] = useState(sidebarShownAtStart);
  const idle = useIdle();
  const endpointLabel = session && session.mode !== 'demo' ? new URL(session.connection.endpoint).host : '';
  const user = session?.connection.credentials?.accessKeyId;
  const bucketParams = matchPath(ROUTE_PATHS.bucket, location.pathname) ?? matchPath(ROUTE_PATHS.uploads, location.pathname);
  const current = bucketParams ? { zone: bucketParams['zone'] ?? '', bucket: bucketParams['bucket'] ?? '' } : null;
  const hasSidebar = session !== null && session.mode !== 'anonymous' && !matchPath(ROUTE_PATHS.connect, location.pathname);
  // One copy of the settings in the page (two same-named controls confuse assistive technology and tests).
  const settingsInSidebar = usePhoneWidth() && hasSidebar;

  // The connection's buttons, the language and the theme: in the top bar, and on a phone at the end of the
  // sidebar (opened from the bar's first button) instead, so the bar keeps to one short row.
  const settings = (
    <>
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
            ) : null}
            <button type="button" className="button button--small" onClick={switchToDemo}>
              {t('app.backToDemo')}
            </button>
          </>
        )}
      </nav>
      <LanguageSwitcher />
      <AfterFirstScreen fallback={<Loading label={t('app.loading')} />}>
        <ThemeSwitcher />
      </AfterFirstScreen>
    </>
  );

  return (
    <div className={`shell${hasSidebar && sidebarShown ? ' shell--sidebar' : ''}${hasSidebar ? ' shell--has-sidebar' : ''}`}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="topbar">
        {hasSidebar ? (
          <button
            type="button"
            className="icon-button"
            aria-expanded={sidebarShown}
            aria-controls="bucket-sidebar"
            aria-label={sidebarShown ? t('sidebar.hide') : t('sidebar.show')}
            title={sidebarShown ? t('sidebar.hide') : t('sidebar.show')}
            onClick={() => setSidebarShown((shown) => !shown)}
          >
            <PanelLeft aria-hidden="true" size={18} />
          </button>
        ) : null}
        <p className="topbar__title">
          <Link to="/">
            {/* The favicon as a CSS background: no <img> in the page (journeys check that object names never add one). */}
            <span aria-hidden="true" className="topbar__logo" />
            {t('app.title')}
          </Link>
        </p>
        {session ? (
          <div className="topbar__connection">
            {session.mode === 'demo' ? <DemoBadge controls={demoDataControls} /> : null}
            {session.mode === 'endpoint' ? <span className="topbar__mode">{t('app.mode.endpoint', { endpoint: endpointLabel })}</span> : null}
            {session.mode === 'anonymous' ? <span className="topbar__mode">{t('app.mode.anonymous', { endpoint: endpointLabel })}</span> : null}
            {user && session.mode !== 'demo' ? <span className="topbar__user mono">{t('app.user', { user })}</span> : null}
          </div>
        ) : null}
        <span className="topbar__spacer" />
        {/* A place of its own, there before the first upload starts: the bar never grows or wraps. */}
        <div className="topbar__uploads">
          {/* Mounted with the shell, not after the first screen: a drop made while the page is still settling
              is counted from its first file (upload-indicator.tsx). Idle, it renders nothing. */}
          {session ? <UploadIndicator scope={connectionId(session.connection)} /> : null}
        </div>
        {hasSidebar && idle ? <JobsIndicatorSlot /> : null}
        {settingsInSidebar ? null : <div className="topbar__settings">{settings}</div>}
      </header>
      <div className="shell__body">
        {hasSidebar && sidebarShown ? (
          <div id="bucket-sidebar" className="shell__sidebar">
            <AfterFirstScreen fallback={<Loading label={t('app.loading')} />}>
              <BucketSidebar current={current} />
              <AcrossBuckets here={matchPath(ROUTE_PATHS.allUploads, location.pathname) !== null} jobsHere={matchPath(ROUTE_PATHS.jobs, location.pathname) !== null} />
            </AfterFirstScreen>
            {settingsInSidebar ? (
              <section className="sidebar__settings" aria-label={t('app.preferences')}>
                {settings}
              </section>
            ) : null}
          </div>
        ) : null}
        <main id="main" className="content" tabIndex={-1}>
          {session?.mode === 'demo' ? (
            <AfterFirstScreen>
              <DemoDamageNotice damaged={demoDataControls.damaged} />
            </AfterFirstScreen>
          ) : null}
          {hasSidebar && idle ? <JobsResumeSlot /> : null}
          <Suspense fallback={<Loading label={t('app.loading')} />}>{children}</Suspense>
        </main>
      </div>
      <AfterFirstScreen>
        <UploadDrawer />
        <ShellLater />
      </AfterFirstScreen>
    </div>
  );
}
