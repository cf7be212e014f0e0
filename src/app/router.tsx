import { createBrowserRouter, Link, type RouteObject } from 'react-router';
import { useI18n } from '../i18n/i18n.tsx';
import { Shell } from './shell.tsx';

function NotFound() {
  const { t } = useI18n();
  return (
    <section>
      <h1>{t('app.notFound')}</h1>
      <Link to="/">{t('app.goHome')}</Link>
    </section>
  );
}

// Route modules are lazy: only the shell is in the entry chunk, the view a user lands on loads next.
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: Shell,
    children: [
      {
        index: true,
        lazy: async () => {
          const { HomeRoute } = await import('./routes/home-route.tsx');
          return { Component: HomeRoute };
        },
      },
      {
        path: 'connect',
        lazy: async () => {
          const { ConnectRoute } = await import('./routes/connect-route.tsx');
          return { Component: ConnectRoute };
        },
      },
      {
        path: 'buckets/:zone/:bucket',
        lazy: async () => {
          const { BucketRoute } = await import('./routes/bucket-route.tsx');
          return { Component: BucketRoute };
        },
      },
      {
        path: 'buckets/:zone/:bucket/uploads',
        lazy: async () => {
          const { UploadsRoute } = await import('./routes/uploads-route.tsx');
          return { Component: UploadsRoute };
        },
      },
      { path: '*', Component: NotFound },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
