import { useQueryClient } from '@tanstack/react-query';
import { createContext, use, useState, type ReactNode } from 'react';
import { createUploadHost, type UploadHost } from './upload-host.ts';

/**
 * Gives the app its upload host (upload-host.ts): created once when the app mounts, never during a child's
 * render and never as module state. Neither this module nor the host imports the engine: the session is
 * made by the code that needs it (useUploadSession in upload-session.ts, a drop on the object list), which
 * loads lazily. The hooks that read the host are in upload-hooks.ts.
 */

const UploadHostContext = createContext<UploadHost | null>(null);

export function UploadsProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [host] = useState(() => createUploadHost(queryClient));
  return <UploadHostContext value={host}>{children}</UploadHostContext>;
}

export function useUploadHost(): UploadHost {
  const host = use(UploadHostContext);
  if (!host) throw new Error('useUploadHost needs an UploadsProvider above it');
  return host;
}
