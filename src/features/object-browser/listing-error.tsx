import { CorsHelp } from '../../components/cors-help-lazy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';

/** A listing that failed (first page or a later one): what went wrong, a retry, and CORS help when likely. */
export function ListingError({ error, onRetry, zone, bucket }: { error: unknown; onRetry: () => void; zone: string; bucket: string }) {
  return <ErrorNotice error={error} onRetry={onRetry} corsHelp={<CorsHelp bucket={{ zone, name: bucket }} />} />;
}
