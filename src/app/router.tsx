import { Link, matchPath, type RouteDefinition } from '../lib/router.tsx';
import { useI18n } from '../i18n/i18n.tsx';
import { lazyView } from '../components/lazy-view.tsx';
import { ROUTE_PATHS } from '../hooks/browse-location.ts';

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
const HomeRoute = lazyView(async () => (await import('./routes/home-route.tsx')).HomeRoute);
const ConnectRoute = lazyView(async () => (await import('./routes/connect-route.tsx')).ConnectRoute);
const BucketRoute = lazyView(async () => (await import('./routes/bucket-route.tsx')).BucketRoute);
const MultipartRoute = lazyView(async () => (await import('./routes/multipart-route.tsx')).MultipartRoute);
const AllUploadsRoute = lazyView(async () => (await import('./routes/all-uploads-route.tsx')).AllUploadsRoute);
const SettingsRoute = lazyView(async () => (await import('./routes/settings-route.tsx')).SettingsRoute);
const JobsRoute = lazyView(async () => (await import('./routes/jobs-route.tsx')).JobsRoute);

/** Starts downloading the view for `pathname`, e.g. while the demo backend starts. */
export function preloadRoute(pathname: string, search = ''): void {
  const route = routes.find((r) => matchPath(r.path, pathname));
  if (route && 'preload' in route.Component && typeof route.Component.preload === 'function') void route.Component.preload();
  // One upload's view is a chunk of its own below the uploads route; a deep link to it fetches both at once
  // instead of one after the other.
  if (matchPath(ROUTE_PATHS.uploads, pathname) && /[?&]upload=/.test(search)) void import('../features/in-progress-uploads/upload-detail.tsx');
}

// The design system's catalogue exists in development builds only: in a production build the condition is
// `false`, the branch and its dynamic import are dropped, and no chunk of it is written (e2e/catalogue.spec.ts).
const devRoutes: RouteDefinition[] = import.meta.env.DEV
  ? [{ path: '/_catalogue', Component: lazyView(async () => (await import('./catalogue/catalogue-route.tsx')).CatalogueRoute) }]
  : [];

export const routes: readonly RouteDefinition[] = [
  ...devRoutes,
  { path: ROUTE_PATHS.home, Component: HomeRoute },
  { path: ROUTE_PATHS.connect, Component: ConnectRoute },
  { path: ROUTE_PATHS.bucket, Component: BucketRoute },
  { path: ROUTE_PATHS.uploads, Component: MultipartRoute },
  { path: ROUTE_PATHS.allUploads, Component: AllUploadsRoute },
  { path: ROUTE_PATHS.settings, Component: SettingsRoute },
  { path: ROUTE_PATHS.jobs, Component: JobsRoute },
  { path: '*', Component: NotFound },
];
