/**
 * The console's routes (app/router.tsx renders them; `next` may only name one of them). A module of its own,
 * free of imports, so the build (vite.config.ts, src/serve/boot-preload.ts) can read it too.
 */
export const ROUTE_PATHS = {
  home: '/',
  connect: '/connect',
  bucket: '/buckets/:zone/:bucket',
  uploads: '/buckets/:zone/:bucket/uploads',
  allUploads: '/uploads',
  jobs: '/jobs',
  settings: '/buckets/:zone/:bucket/settings',
} as const;
