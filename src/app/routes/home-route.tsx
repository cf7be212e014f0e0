import { Navigate } from '../../lib/router.tsx';
import { CreateBucketButton } from '../../features/bucket-admin/create-bucket.tsx';
import { BucketListPage } from '../../features/buckets/bucket-list-page.tsx';
import { bucketPath } from '../../hooks/browse-location.ts';
import { useSession } from '../../hooks/session.ts';

export function HomeRoute() {
  const { session } = useSession();
  if (!session) return <Navigate to="/connect" replace />;
  // Anonymous sessions know exactly one bucket and cannot list buckets (ref §10).
  if (session.mode === 'anonymous' && session.bucket) {
    return <Navigate to={bucketPath(session.bucket.zone, session.bucket.name)} replace />;
  }
  return <BucketListPage create={<CreateBucketButton />} />;
}
