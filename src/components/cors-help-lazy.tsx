import { lazy, Suspense, type ComponentProps } from 'react';

// The CORS explanation (and the CORS API behind its "apply" button) shows only after a network failure, so
// screens load it then rather than up front.
const Impl = lazy(async () => ({ default: (await import('./cors-help.tsx')).CorsHelp }));

export function CorsHelp(props: ComponentProps<typeof Impl>) {
  return (
    <Suspense fallback={null}>
      <Impl {...props} />
    </Suspense>
  );
}
