import { createClient, type QsClient } from '../../api/client.ts';
import { ApiError, NetworkError } from '../../api/errors.ts';
import { headBucket } from '../../api/buckets/operations.ts';
import { listObjects } from '../../api/objects/operations.ts';
import { listBuckets } from '../../api/service/operations.ts';
import type { Session } from '../../hooks/session.ts';

/**
 * The verdict shown before a connection is used (a connection is checked before use). `error` is the failure
 * that decided the verdict, shown with its code and request id.
 */
export type Verdict =
  | { kind: 'ok'; buckets: number }
  | { kind: 'ok-bucket'; bucket: string; listError?: unknown }
  | { kind: 'ok-anonymous'; bucket: string }
  | { kind: 'credentials'; error: ApiError }
  | { kind: 'network'; error: NetworkError }
  | { kind: 'other'; error: unknown };

const CREDENTIAL_CODES = new Set(['invalid_access_key_id', 'signature_not_matched', 'unauthorized']);

function classify(error: unknown): Verdict {
  if (error instanceof ApiError && CREDENTIAL_CODES.has(error.code)) return { kind: 'credentials', error };
  if (error instanceof NetworkError) return { kind: 'network', error };
  return { kind: 'other', error };
}

export async function checkConnection(session: Session, signal?: AbortSignal, client: QsClient = createClient(session.connection)): Promise<Verdict> {
  const bucket = session.bucket;

  if (session.mode === 'anonymous') {
    if (!bucket) return { kind: 'other', error: new Error('An anonymous connection needs a bucket') };
    // ListObjects answers with a JSON error code even when anonymous listing is refused (ref §10), so it
    // tells "reachable, bucket exists" apart from "no such bucket" — HEAD would give a bare status.
    try {
      await listObjects(client, { zone: bucket.zone, bucket: bucket.name, limit: 1 }, { signal });
      return { kind: 'ok-anonymous', bucket: bucket.name };
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'permission_denied' || error.status === 403)) {
        return { kind: 'ok-anonymous', bucket: bucket.name };
      }
      return classify(error);
    }
  }

  let count: number;
  try {
    count = (await listBuckets(client, { limit: 1 }, { signal })).count;
  } catch (listError) {
    const verdict = classify(listError);
    // Bad credentials fail everywhere; other list failures (CORS on the service host, no list
    // permission) leave the named bucket worth a try.
    if (verdict.kind === 'credentials' || !bucket) return verdict;
    try {
      await headBucket(client, { zone: bucket.zone, bucket: bucket.name }, { signal });
      return { kind: 'ok-bucket', bucket: bucket.name, listError };
    } catch (headError) {
      const headVerdict = classify(headError);
      return headVerdict.kind === 'other' && verdict.kind !== 'other' ? verdict : headVerdict;
    }
  }
  if (bucket) {
    try {
      await headBucket(client, { zone: bucket.zone, bucket: bucket.name }, { signal });
    } catch (headError) {
      return classify(headError);
    }
  }
  return { kind: 'ok', buckets: count };
}
