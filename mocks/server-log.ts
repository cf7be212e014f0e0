/** The standalone emulator's access log: one entry per request answered, as a line or as JSON. */

/** One access-log entry: one per request the server answered. */
export interface AccessLogEntry {
  time: Date;
  method: string;
  /** Request target as sent, with a pre-signed URL's signature value replaced by `***`. */
  path: string;
  status: number;
  /** Response body bytes. */
  bytes: number;
  ms: number;
  requestId: string;
  /** For a refused signature: the string-to-sign the server computed (never the secret). */
  stringToSign?: string;
}

/** A pre-signed URL's signature is a bearer credential until it expires: never written to a log. */
export function redactTarget(target: string): string {
  return target.replace(/([?&]signature=)[^&#]*/gi, '$1***');
}

/** `2026-01-01T00:00:00.000Z GET /bucket/key 200 1234B 3.1ms id=…` (+ the string-to-sign, JSON-quoted). */
export function formatAccessLine(entry: AccessLogEntry): string {
  const base = `${entry.time.toISOString()} ${entry.method} ${entry.path} ${entry.status} ${entry.bytes}B ${entry.ms.toFixed(1)}ms id=${entry.requestId}`;
  return entry.stringToSign === undefined ? base : `${base} string-to-sign=${JSON.stringify(entry.stringToSign)}`;
}

export function formatAccessJson(entry: AccessLogEntry): string {
  return JSON.stringify({
    time: entry.time.toISOString(),
    method: entry.method,
    path: entry.path,
    status: entry.status,
    bytes: entry.bytes,
    ms: Math.round(entry.ms * 10) / 10,
    request_id: entry.requestId,
    ...(entry.stringToSign !== undefined ? { string_to_sign: entry.stringToSign } : {}),
  });
}
