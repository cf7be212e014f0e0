import { lazy } from 'react';
import { Link, type RouteDefinition } from '../lib/router.tsx';
import { useI18n } from '../i18n/i18n.tsx';

function NotFound() {
  const { t } = useI18n();
  return (
    <section>
      <h1>{t('app.notFound')}</h1>
      <Link to="/">{t('app.goHome')}</Link>
    </section>
  );
}

// Route modules are lazy: only the shell is in the entry chunk, the view a user lands on loads next (the
// shell's Suspense shows the loading state meanwhile).
const HomeRoute = lazy(async () => ({ default: (await import('./routes/home-route.tsx')).HomeRoute }));
const ConnectRoute = lazy(async () => ({ default: (await import('./routes/connect-route.tsx')).ConnectRoute }));
const BucketRoute = lazy(async () => ({ default: (await import('./routes/bucket-route.tsx')).BucketRoute }));
const UploadsRoute = lazy(async () => ({ default: (await import('./routes/uploads-route.tsx')).UploadsRoute }));

export const routes: readonly RouteDefinition[] = [
  { path: '/', Component: HomeRoute },
  { path: '/connect', Component: ConnectRoute },
  { path: '/buckets/:zone/:bucket', Component: BucketRoute },
  { path: '/buckets/:zone/:bucket/uploads', Component: UploadsRoute },
  { path: '*', Component: NotFound },
];
