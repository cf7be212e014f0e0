import type { CorsRule } from '../../api/cors/schemas.ts';
import type { MessageKey } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/admin.ts';

export const RULE_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'] as const;
export type RuleMethod = (typeof RULE_METHODS)[number];

export interface RuleForm {
  origin: string;
  methods: readonly RuleMethod[];
  allowedHeaders: string;
  exposeHeaders: string;
  maxAge: string;
}

export const EMPTY_RULE_FORM: RuleForm = { origin: '', methods: ['GET', 'HEAD'], allowedHeaders: '*', exposeHeaders: '', maxAge: '' };

export type RuleProblems = Partial<Record<'origin' | 'methods' | 'allowedHeaders' | 'exposeHeaders' | 'maxAge', MessageKey>>;

/** Header names are HTTP tokens (`*` is one): rule strings are echoed in Access-Control-* headers (ref §9.9). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** An origin pattern: printable ASCII without spaces, e.g. https://console.example.com or * . */
const ORIGIN = /^[\x21-\x7e]+$/;

function splitList(value: string): string[] {
  return value.split(/[\s,]+/).map((v) => v.trim()).filter((v) => v !== '');
}

/** The rule the form describes, or what is wrong with each field. */
export function ruleFromForm(form: RuleForm): { rule: CorsRule } | { problems: RuleProblems } {
  const problems: RuleProblems = {};
  const origin = form.origin.trim();
  if (!ORIGIN.test(origin)) problems.origin = 'admin.cors.problem.origin';
  if (form.methods.length === 0) problems.methods = 'admin.cors.problem.methods';
  const allowed = splitList(form.allowedHeaders);
  const expose = splitList(form.exposeHeaders);
  if (!allowed.every((h) => TOKEN.test(h))) problems.allowedHeaders = 'admin.cors.problem.header';
  if (!expose.every((h) => TOKEN.test(h))) problems.exposeHeaders = 'admin.cors.problem.header';
  const maxAge = form.maxAge.trim();
  if (maxAge !== '' && !/^\d{1,9}$/.test(maxAge)) problems.maxAge = 'admin.cors.problem.maxAge';
  if (Object.keys(problems).length > 0) return { problems };
  return {
    rule: {
      allowed_origin: origin,
      allowed_methods: RULE_METHODS.filter((m) => form.methods.includes(m)),
      ...(allowed.length > 0 ? { allowed_headers: allowed } : {}),
      ...(expose.length > 0 ? { expose_headers: expose } : {}),
      ...(maxAge !== '' ? { max_age_seconds: Number(maxAge) } : {}),
    },
  };
}

/** Same origin, methods and header lists (order-insensitive): the suggestion is then already in place. */
export function sameRule(a: CorsRule, b: CorsRule): boolean {
  const set = (v: readonly string[] | undefined) => [...new Set((v ?? []).map((s) => s.toLowerCase()))].sort().join(',');
  return a.allowed_origin === b.allowed_origin && set(a.allowed_methods) === set(b.allowed_methods) &&
    set(a.allowed_headers) === set(b.allowed_headers) && set(a.expose_headers) === set(b.expose_headers) &&
    (a.max_age_seconds ?? null) === (b.max_age_seconds ?? null);
}
