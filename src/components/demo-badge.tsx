import { useI18n } from '../i18n/i18n.tsx';

export function DemoBadge() {
  const { t } = useI18n();
  return (
    <span className="badge" title={t('app.demoBadgeHint')} data-testid="demo-badge">
      {t('app.demoBadge')}
    </span>
  );
}
