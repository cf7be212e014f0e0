/**
 * CORS evaluation for the emulator (ref §9.9, §5.7, §12).
 * A rule matches when its origin pattern matches `Origin`, its methods contain the (requested) method and its
 * headers cover every requested header, case-insensitively; the first matching rule wins.
 */
import { CONSOLE_READ_HEADERS } from '../../src/api/cors/rule.ts';
import { globMatch } from '../../src/api/protocol/glob.ts';

export interface CorsRuleLike {
  allowed_origin: string;
  allowed_methods: readonly string[];
  allowed_headers?: readonly string[] | undefined;
  expose_headers?: readonly string[] | undefined;
  max_age_seconds?: number | undefined;
}

export interface CorsConfigLike {
  cors_rules: readonly CorsRuleLike[];
  resp_vary?: string | undefined;
}

const ALL_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'] as const;

/** `*` in a pattern stands for any run of characters (ref §9.9: `http://*.example.com`); case-insensitive. */
function wildcardMatch(pattern: string, value: string): boolean {
  return globMatch(pattern.toLowerCase(), value.toLowerCase());
}

function ruleMethods(rule: CorsRuleLike): readonly string[] {
  return rule.allowed_methods.some((m) => m.trim() === '*') ? ALL_METHODS : rule.allowed_methods.map((m) => m.trim().toUpperCase());
}

export function parseHeaderList(value: string | null): string[] {
  if (value === null) return [];
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

export function findCorsRule(
  config: CorsConfigLike | undefined,
  origin: string,
  method: string,
  requestedHeaders: readonly string[],
): CorsRuleLike | undefined {
  if (!config) return undefined;
  const upper = method.toUpperCase();
  return config.cors_rules.find((rule) => {
    if (!wildcardMatch(rule.allowed_origin.trim(), origin)) return false;
    if (!ruleMethods(rule).includes(upper)) return false;
    const allowed = rule.allowed_headers ?? [];
    return requestedHeaders.every((h) => allowed.some((pattern) => wildcardMatch(pattern.trim(), h)));
  });
}

function varyEnabled(config: CorsConfigLike): boolean {
  const v = config.resp_vary?.trim().toLowerCase();
  // ref §9.9: DOCS examples write "enable"; accept both spellings.
  return v === 'enabled' || v === 'enable';
}

/**
 * Headers for a matched rule. `requestedHeaders` are echoed as Allow-Headers on preflights (ref §9.9).
 * On actual responses the Allow-Headers line is omitted because browsers ignore it there.
 */
export function corsHeadersForRule(
  config: CorsConfigLike,
  rule: CorsRuleLike,
  origin: string,
  requestedHeaders: readonly string[] | undefined,
): Record<string, string> {
  const out: Record<string, string> = {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': ruleMethods(rule).join(', '),
  };
  if (requestedHeaders && requestedHeaders.length > 0) out['access-control-allow-headers'] = requestedHeaders.join(', ');
  if (rule.expose_headers && rule.expose_headers.length > 0) out['access-control-expose-headers'] = rule.expose_headers.join(', ');
  if (rule.max_age_seconds !== undefined) out['access-control-max-age'] = String(rule.max_age_seconds);
  if (varyEnabled(config)) out['vary'] = 'Origin';
  return out;
}

/**
 * Exposed by service-level endpoints, which have no configurable CORS and which the emulator opens to any
 * origin (ref §12): the headers a console reads (ref §9.9).
 */
const SERVICE_EXPOSE_HEADERS = CONSOLE_READ_HEADERS;

export function serviceCorsHeaders(origin: string, requestedHeaders: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': [...ALL_METHODS].join(', '),
    'access-control-expose-headers': SERVICE_EXPOSE_HEADERS.join(', '),
    'access-control-max-age': '600',
    vary: 'Origin',
  };
  if (requestedHeaders && requestedHeaders.length > 0) out['access-control-allow-headers'] = requestedHeaders.join(', ');
  return out;
}
