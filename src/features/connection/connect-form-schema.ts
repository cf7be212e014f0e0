import { z } from 'zod';
import { endpointSchema, proxyBaseSchema, type Connection } from '../../api/connection.ts';
import { isIpHost } from '../../api/url.ts';
import type { MessageKey } from '../../i18n/i18n.tsx';
import type { Session } from '../../hooks/session.ts';
import type { RecentConnection } from './recent-connections.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/connect.ts';

/**
 * The Connect form. Messages are i18n keys, translated where they are shown, so the same schema serves
 * both languages.
 */
const message = (key: MessageKey) => ({ message: key });

const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{4,61}[a-z0-9]$/;
const ZONE = /^[a-z0-9][a-z0-9-]*$/;

export function splitZones(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((zone) => zone.trim().toLowerCase())
    .filter((zone) => zone !== '');
}

/** '' ⇒ undefined (QingStor's limit); a positive whole number of bytes ⇒ that number; anything else ⇒ null. */
export function parseCopyLimit(value: string): number | undefined | null {
  const v = value.trim();
  if (v === '') return undefined;
  if (!/^[0-9]{1,16}$/.test(v)) return null;
  const n = Number(v);
  return n >= 1 && Number.isSafeInteger(n) ? n : null;
}

export const connectFormSchema = z
  .object({
    kind: z.enum(['keys', 'anonymous']),
    endpoint: z.string().refine((value) => endpointSchema.safeParse(value).success, message('connect.error.endpoint')),
    zones: z.string(),
    zoneInHost: z.boolean(),
    /** Empty = talk to the endpoint directly. */
    proxy: z.string().refine((value) => value.trim() === '' || proxyBaseSchema.safeParse(value).success, message('connect.error.proxy')),
    /** Empty = QingStor's copy limit; digits = an emulator's lowered `--copy-limit` in bytes. */
    copyLimit: z.string().refine((value) => parseCopyLimit(value) !== null, message('connect.error.copyLimit')),
    style: z.enum(['path', 'virtual-host']),
    accessKeyId: z.string(),
    secretAccessKey: z.string(),
    bucket: z.string(),
    remember: z.boolean(),
  })
  .superRefine((form, ctx) => {
    const zones = splitZones(form.zones);
    if (zones.length === 0 || !zones.every((zone) => ZONE.test(zone))) {
      ctx.addIssue({ code: 'custom', path: ['zones'], ...message('connect.error.zones') });
    }
    if (form.kind === 'keys') {
      if (form.accessKeyId.trim() === '') ctx.addIssue({ code: 'custom', path: ['accessKeyId'], ...message('connect.error.accessKey') });
      if (form.secretAccessKey === '') ctx.addIssue({ code: 'custom', path: ['secretAccessKey'], ...message('connect.error.secret') });
    }
    const bucket = form.bucket.trim();
    if ((form.kind === 'anonymous' || bucket !== '') && !BUCKET_NAME.test(bucket)) {
      ctx.addIssue({ code: 'custom', path: ['bucket'], ...message('connect.error.bucket') });
    }
  });

export type ConnectFormValues = z.infer<typeof connectFormSchema>;

export const DEFAULT_FORM: ConnectFormValues = {
  kind: 'keys',
  endpoint: '',
  zones: 'pek3a',
  zoneInHost: true,
  proxy: '',
  copyLimit: '',
  style: 'path',
  accessKeyId: '',
  secretAccessKey: '',
  bucket: '',
  remember: false,
};

/** Single-host servers (IPs, localhost) cannot take a zone label in front of their host (ref §1.1). */
export function suggestZoneInHost(endpoint: string): boolean | undefined {
  try {
    const { hostname } = new URL(endpoint.trim());
    if (hostname === '') return undefined;
    return !(isIpHost(hostname) || hostname === 'localhost' || !hostname.includes('.'));
  } catch {
    return undefined;
  }
}

export function sessionFromForm(values: ConnectFormValues): Session {
  const zones = splitZones(values.zones);
  const defaultZone = zones[0] ?? 'pek3a';
  const endpoint = new URL(values.endpoint.trim());
  const copyLimit = parseCopyLimit(values.copyLimit);
  const connection: Connection = {
    endpoint: endpoint.origin,
    zoneInHost: values.zoneInHost,
    style: values.style,
    defaultZone,
    ...(values.proxy.trim() !== '' ? { proxy: values.proxy.trim() } : {}),
    ...(typeof copyLimit === 'number' ? { copyLimit } : {}),
    ...(values.kind === 'keys'
      ? { credentials: { accessKeyId: values.accessKeyId.trim(), secretAccessKey: values.secretAccessKey } }
      : {}),
  };
  const bucket = values.bucket.trim();
  return {
    mode: values.kind === 'keys' ? 'endpoint' : 'anonymous',
    connection,
    zones,
    ...(bucket !== '' ? { bucket: { zone: defaultZone, name: bucket } } : {}),
  };
}

/** The Connect form filled from an entry (secret from this tab's opt-in, if any). */
export function formFromRecent(entry: RecentConnection, secret: string): ConnectFormValues {
  return {
    ...DEFAULT_FORM,
    kind: entry.kind,
    endpoint: entry.endpoint,
    zones: entry.zones.join(', '),
    zoneInHost: entry.zoneInHost,
    style: entry.style,
    proxy: entry.proxy,
    copyLimit: entry.copyLimit !== undefined ? String(entry.copyLimit) : '',
    accessKeyId: entry.accessKeyId,
    secretAccessKey: secret,
    bucket: entry.bucket,
    remember: secret !== '',
  };
}
