import { lazyView } from './lazy-view.tsx';

// The CORS explanation (and the CORS API behind its "apply" button) shows only after a network failure, so
// screens load it then rather than up front.
export const CorsHelp = lazyView(async () => (await import('./cors-help.tsx')).CorsHelp, { fallback: 'none' });
