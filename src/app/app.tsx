import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ServeInfo, Session } from '../hooks/session.ts';
import { I18nProvider } from '../i18n/i18n.tsx';
import { createQueryClient } from './query-client.ts';
import { createBrowserHistory, RouterProvider, Routes } from '../lib/router.tsx';
import { routes } from './router.tsx';
import { Shell } from './shell.tsx';
import { SessionProvider } from './session-provider.tsx';
import { UploadsProvider } from '../features/upload-queue/ui/uploads-provider.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import '../styles/base.css';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import '../styles/layout.css';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import '../styles/ui.css';

export function App({ initialSession, demoAvailable, serve, queryClient: given }: {
  initialSession: Session | null;
  demoAvailable: boolean;
  serve?: ServeInfo | undefined;
  /** The app's query cache, when boot already started a request into it (main.tsx). */
  queryClient?: QueryClient | undefined;
}) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  const [history] = useState(() => createBrowserHistory());
  return (
    <I18nProvider>
      <SessionProvider initial={initialSession} demoAvailable={demoAvailable} serve={serve}>
        <QueryClientProvider client={queryClient}>
          <UploadsProvider>
            <RouterProvider history={history}>
              <Shell>
                <Routes routes={routes} />
              </Shell>
            </RouterProvider>
          </UploadsProvider>
        </QueryClientProvider>
      </SessionProvider>
    </I18nProvider>
  );
}
