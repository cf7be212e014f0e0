/**
 * Drives the official QingStor JS SDK (npm `qingstor-sdk` 3.1.4) against either emulator adapter.
 * Quirks handled here (mocks/README.md, "The official JS SDK as a client"):
 * - the SDK only honours `endpoint` (host/port/protocol alone are overwritten);
 * - on first use it writes a config file: QINGSTOR_CONFIG_PATH must point somewhere harmless;
 * - it sends `Host: <zone>.<host>` without port and puts the zone in the URL host, which does not resolve:
 *   over real HTTP every request goes through the emulator as an HTTP proxy (absolute-form requests);
 * - axios rejects non-2xx answers; `call()` turns both outcomes into one plain response.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sdk, { type SdkResponse } from 'qingstor-sdk';
import { rawHttp } from './server-client.ts';

export interface PlainResponse {
  status: number;
  headers: Record<string, string | undefined>;
  data: unknown;
}

function isAxiosErrorWithResponse(error: unknown): error is { response: SdkResponse } {
  if (typeof error !== 'object' || error === null || !('response' in error)) return false;
  const response: unknown = error.response;
  return typeof response === 'object' && response !== null && 'status' in response && typeof response.status === 'number';
}

/** Awaits an SDK call; HTTP errors become responses (status ≥ 300) instead of rejections. */
export async function call(promise: Promise<SdkResponse>): Promise<PlainResponse> {
  try {
    const r = await promise;
    return { status: r.status, headers: r.headers, data: r.data };
  } catch (error) {
    if (isAxiosErrorWithResponse(error)) return { status: error.response.status, headers: error.response.headers, data: error.response.data };
    throw error;
  }
}

let configDir: string | undefined;

/** Points the SDK's config file at a private temp dir (it writes one on first use). */
export function isolateSdkConfig(): void {
  configDir ??= mkdtempSync(path.join(tmpdir(), 'qingstor-sdk-'));
  process.env.QINGSTOR_CONFIG_PATH = path.join(configDir, 'config.yaml');
}

export interface SdkTarget {
  /** `endpoint` for the SDK config. */
  endpoint: string;
  /** HTTP proxy for axios (the standalone server), or none (msw intercepts in-process). */
  proxy?: { host: string; port: number };
  /** `enable_virtual_host_style`: bucket in the host (ref §1.2). */
  virtualHost?: boolean;
}

export function createSdk(target: SdkTarget, credentials: { accessKeyId: string; secretAccessKey: string }): InstanceType<typeof sdk.QingStor> {
  isolateSdkConfig();
  const config = new sdk.Config({
    access_key_id: credentials.accessKeyId,
    secret_access_key: credentials.secretAccessKey,
    endpoint: target.endpoint,
    log_level: 'error',
    enable_virtual_host_style: target.virtualHost ?? false,
  });
  const proxy = target.proxy;
  if (proxy) config.getAxiosConfig = () => ({ proxy });
  return new sdk.QingStor(config);
}

export interface WireResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

/**
 * A raw request to an absolute URL: through fetch when msw intercepts in-process, or as an absolute-form
 * request to the standalone server (the URL's host need not resolve either way).
 */
export async function wire(
  proxyPort: number | undefined,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Uint8Array<ArrayBuffer>,
): Promise<WireResponse> {
  if (proxyPort === undefined) {
    const res = await fetch(url, { method, headers, ...(body ? { body } : {}) });
    return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
  }
  const res = await rawHttp({ port: proxyPort, method, target: url, host: new URL(url).host, headers, ...(body ? { body } : {}) });
  const out = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (typeof value === 'string') out.set(name, value);
    else if (Array.isArray(value)) for (const v of value) out.append(name, v);
  }
  return { status: res.status, headers: out, body: new Uint8Array(res.body) };
}
