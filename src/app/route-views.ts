import { ROUTE_PATHS } from '../hooks/route-paths.ts';

/**
 * The modules each route's view loads lazily (app/router.tsx imports the same files). The build reads this
 * table (vite.config.ts, src/serve/boot-preload.ts) so that a deep link or a reload starts downloading its
 * view with the entry instead of after it; src/serve/boot-preload.test.ts checks that it names every route
 * and that each module exists. Free of imports beyond the route paths, for the build to read.
 */
export const ROUTE_VIEWS: ReadonlyArray<{ path: string; search?: string; modules: readonly string[] }> = [
  { path: ROUTE_PATHS.home, modules: ['src/app/routes/home-route.tsx'] },
  { path: ROUTE_PATHS.connect, modules: ['src/app/routes/connect-route.tsx'] },
  // With what app/first-listing.ts imports to ask for the first page (or page of parts) at boot, named first:
  // the preloads are requested in this order, so the request's code is not queued behind the view's.
  { path: ROUTE_PATHS.bucket, modules: ['src/api/client.ts', 'src/features/object-browser/queries.ts', 'src/app/routes/bucket-route.tsx'] },
  {
    path: ROUTE_PATHS.uploads,
    modules: ['src/api/client.ts', 'src/features/in-progress-uploads/location.ts', 'src/features/in-progress-uploads/queries.ts', 'src/app/routes/multipart-route.tsx'],
  },
  // One upload's parts are a view of their own below the uploads route (?upload=…).
  { path: ROUTE_PATHS.uploads, search: '[?&]upload=', modules: ['src/features/in-progress-uploads/upload-detail.tsx'] },
  { path: ROUTE_PATHS.allUploads, modules: ['src/app/routes/all-uploads-route.tsx'] },
  { path: ROUTE_PATHS.settings, modules: ['src/app/routes/settings-route.tsx'] },
  { path: ROUTE_PATHS.jobs, modules: ['src/app/routes/jobs-route.tsx'] },
];
