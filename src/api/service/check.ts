import { headBucket } from '../buckets/operations.ts';
import { createClient, type QsClient } from '../client.ts';
import type { Connection } from '../connection.ts';
import { ApiError, NetworkError } from '../errors.ts';
import { listObjects } from '../objects/operations.ts';
import { listBuckets } from './operations.ts';

/** What a check needs of a session: how to connect, and the bucket an anonymous (or bucket-only) session names. */
export interface CheckTarget {
  mode: string;
  connection: Connection;
  bucket?: { zone: string; name: string };
}

/**
 * The verdict shown before a connection is used (a connection is checked before use). `error` is the failure
 * that decided the verdict, shown with its code and request id.
 */
export type Verdict =
  | { kind: 'ok'; buckets: number }
  | { kind: 'ok-bucket'; bucket: string; listError?: unknown }
  | { kind: 'ok-anonymous'; bucket: string }
  | { kind: 'credentials'; error: ApiError }
  | { kind: 'network'; error: NetworkError; reason: NetworkReason }
  | { kind: 'other'; error: unknown };

/**
 * Why no answer was readable:
 * - `cors`: something answered at the address, but the browser kept the answer from the page (CORS);
 * - `unreachable`: nothing answered at all (connection refused, unknown host, TLS failure, timeout);
 * - `mixed-content`: an https page may not talk to a plain-http endpoint, so nothing was even sent.
 */
export type NetworkReason = 'cors' | 'unreachable' | 'mixed-content';

type Probe = (url: string, signal?: AbortSignal) => Promise<boolean>;

/**
 * True when anything answers at `url`. A `no-cors` request needs no permission from the server: any
 * HTTP answer resolves it (as an opaque response the page cannot read), while a refused connection, an
 * unknown host or a TLS failure rejects it. So it tells "the browser blocked the answer" from "nothing
 * answered" without reading anything.
 */
export const probeAnswers: Probe = async (url, signal) => {
  const timeout = AbortSignal.timeout(8000);
  try {
    await fetch(url, { mode: 'no-cors', credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    return true;
  } catch {
    return false;
  }
};

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

export async function diagnoseNetworkError(error: NetworkError, signal?: AbortSignal, probe: Probe = probeAnswers, pageProtocol = globalThis.location?.protocol): Promise<NetworkReason> {
  const target = new URL(error.requestUrl);
  if (pageProtocol === 'https:' && target.protocol === 'http:' && !LOOPBACK.test(target.hostname)) return 'mixed-content';
  // A same-origin request (the serve proxy) is never subject to CORS: no answer means nothing answered.
  if (!error.likelyCors) return 'unreachable';
  return (await probe(`${target.origin}/`, signal)) ? 'cors' : 'unreachable';
}

const CREDENTIAL_CODES = new Set(['invalid_access_key_id', 'signature_not_matched', 'unauthorized']);

type Classify = (error: unknown) => Promise<Verdict>;

function classifier(signal: AbortSignal | undefined, probe: Probe): Classify {
  return async (error) => {
    if (error instanceof ApiError && CREDENTIAL_CODES.has(error.code)) return { kind: 'credentials', error };
    if (error instanceof NetworkError) return { kind: 'network', error, reason: await diagnoseNetworkError(error, signal, probe) };
    return { kind: 'other', error };
  };
}

export async function checkConnection(session: CheckTarget, signal?: AbortSignal, client: QsClient = createClient(session.connection), probe: Probe = probeAnswers): Promise<Verdict> {
  const classify = classifier(signal, probe);
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
    const verdict = await classify(listError);
    // Bad credentials fail everywhere; other list failures (CORS on the service host, no list
    // permission) leave the named bucket worth a try.
    if (verdict.kind === 'credentials' || !bucket) return verdict;
    try {
      await headBucket(client, { zone: bucket.zone, bucket: bucket.name }, { signal });
      return { kind: 'ok-bucket', bucket: bucket.name, listError };
    } catch (headError) {
      const headVerdict = await classify(headError);
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
