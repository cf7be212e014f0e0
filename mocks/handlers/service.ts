/** Service-level operations: ListBuckets (ref §9.1) and GET /?location (ref §1.1). */
import { QsError } from '../errors.ts';
import { isoMillis, jsonResponse } from '../http/response.ts';
import { bucketUrl, intParam, type RequestContext } from './context.ts';

const ZONE_NAMES: Record<string, { 'en-us': string; 'zh-cn': string }> = {
  pek3a: { 'en-us': 'Beijing 3A', 'zh-cn': '北京3区-A' },
  pek3b: { 'en-us': 'Beijing 3B', 'zh-cn': '北京3区-B' },
  sh1a: { 'en-us': 'Shanghai 1A', 'zh-cn': '上海1区-A' },
  gd2: { 'en-us': 'Guangdong 2', 'zh-cn': '广东2区' },
  ap3: { 'en-us': 'Asia Pacific 3', 'zh-cn': '亚太3区' },
};

/** Anonymous allowed (ref §10). */
export function getLocations(ctx: RequestContext): Response {
  const lang = ctx.address.query.get('lang') === 'zh-cn' ? 'zh-cn' : 'en-us';
  const host = ctx.url.hostname.toLowerCase();
  const domain = ctx.options.domains.find((d) => host === d.toLowerCase() || host.endsWith(`.${d.toLowerCase()}`));
  const port = ctx.url.port ? `:${ctx.url.port}` : '';
  // A host outside the domains cannot carry a zone label; its zones are all reached through that host itself.
  const endpointOf = (id: string) => (domain === undefined ? ctx.url.host : `${id}.${domain}${port}`);
  return jsonResponse(200, {
    locations: ctx.options.zones.map((id) => ({ id, name: ZONE_NAMES[id]?.[lang] ?? id, endpoint: endpointOf(id) })),
  });
}

/**
 * Authenticated only (ref §9.1). The zone host lists its zone; the global host and zone-agnostic hosts list
 * every zone, optionally filtered by the `Location` header. `count` is the total of matching buckets.
 */
export function listBuckets(ctx: RequestContext): Response {
  if (ctx.principal.kind === 'anonymous') throw new QsError('permission_denied', 'ListBuckets needs credentials.');
  const headerZone = ctx.request.headers.get('location')?.trim() || undefined;
  const zone = ctx.zoneAgnostic || ctx.address.zone === undefined ? headerZone : ctx.address.zone;
  if (zone !== undefined && !ctx.options.zones.includes(zone)) throw new QsError('invalid_location');
  const offset = intParam(ctx.address.query, 'offset');
  const limit = intParam(ctx.address.query, 'limit');
  const result = ctx.store.listBuckets({
    ownerId: ctx.principal.user.id,
    ...(zone !== undefined ? { zone } : {}),
    ...(offset !== undefined ? { offset } : {}),
    ...(limit !== undefined && limit > 0 ? { limit } : {}),
  });
  return jsonResponse(200, {
    count: result.count,
    buckets: result.buckets.map((b) => ({ name: b.name, location: b.zone, url: bucketUrl(ctx, b), created: isoMillis(b.created) })),
  });
}
