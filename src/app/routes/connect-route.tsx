import { ConnectPage } from '../../features/connection/connect-page.tsx';
import { useSession } from '../../hooks/session.ts';
import { useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/connect.ts';

export function ConnectRoute() {
  const { t } = useI18n();
  const { session, switchToEndpoint } = useSession();
  // Reached with history navigation while the demo backend runs: leaving demo mode needs a reload.
  if (session?.mode === 'demo') {
    return (
      <section className="page-narrow">
        <h1>{t('connect.title')}</h1>
        <p>{t('connect.demoActive')}</p>
        <button type="button" className="button button--primary" onClick={switchToEndpoint}>
          {t('app.connectEndpoint')}
        </button>
      </section>
    );
  }
  return <ConnectPage />;
}
