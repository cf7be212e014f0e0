/**
 * Command-line and users-file parsing for the standalone emulator (`npm run serve:mock`), kept apart from
 * server.ts so tests can check it without starting anything.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../src/api/protocol/demo.ts';

/** The documented demo key pair (src/api/protocol/demo.ts); public, grants nothing real. */
export { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY };

export const DEFAULT_PORT = 9000;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DOMAIN = 'qingstor.local';
/** Zone of path-style requests to hosts outside the domains (e.g. http://127.0.0.1:9000/<bucket>/<key>). */
export const DEFAULT_ZONE = 'pek3a';

export type SeedName = 'demo' | 'empty';

/**
 * Node flags `npm run serve:mock` starts the server with. A 1 MiB young generation makes V8 collect the
 * socket chunks of a large upload as it goes instead of letting ~60 MiB of them pile up: one 1 GiB PUT with
 * --data-dir peaked about 35-45 MiB above idle instead of 80-95, and used 2.1 instead of 2.7 CPU-s (small
 * requests: no measurable change). Benchmarks and tests that spawn the server use the same flags.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];

export interface ServerUser {
  id: string;
  name: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Where the user list came from; decides what the banner may print (never a secret that is not the demo one). */
export type UsersSource = 'default' | 'env' | 'file';

const usersFileSchema = z
  .array(
    z.strictObject({
      id: z.string().regex(/^usr-[A-Za-z0-9_-]+$/, 'user ids look like usr-<letters/digits>'),
      name: z.string().min(1).max(256).optional(),
      access_key_id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'access_key_id: 1-128 letters, digits, "_" or "-"'),
      secret_access_key: z.string().min(8, 'secret_access_key: at least 8 characters').max(256),
    }),
  )
  .min(1, 'the users file must list at least one user')
  .superRefine((users, ctx) => {
    const ids = new Set<string>();
    const keys = new Set<string>();
    users.forEach((user, index) => {
      if (ids.has(user.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate id ${user.id}` });
      if (keys.has(user.access_key_id)) {
        ctx.addIssue({ code: 'custom', path: [index, 'access_key_id'], message: `duplicate access_key_id ${user.access_key_id}` });
      }
      ids.add(user.id);
      keys.add(user.access_key_id);
    });
  });

/** Parses the JSON text of a `--users` file. Throws an Error naming every problem (never echoing secrets). */
export function parseUsersFile(text: string): ServerUser[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`users file is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const parsed = usersFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`users file is invalid:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data.map((u) => ({ id: u.id, name: u.name ?? u.id, accessKeyId: u.access_key_id, secretAccessKey: u.secret_access_key }));
}

export interface CliOptions {
  port: number;
  host: string;
  domains: string[];
  seed: SeedName;
  defaultZone: string;
  usersFile: string | undefined;
  strictCors: boolean;
  viaMsw: boolean;
  /** `--copy-limit <bytes>`: largest PUT-copy source / part-copy range; undefined = the emulator's default. */
  copyLimit?: number;
  dataDir: string | undefined;
  log: 'text' | 'json';
  quiet: boolean;
}

const cliSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(DEFAULT_PORT),
  host: z.string().min(1).default(DEFAULT_HOST),
  domain: z
    .array(z.string().regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'a DNS name such as qingstor.local'))
    .default([DEFAULT_DOMAIN]),
  seed: z.enum(['demo', 'empty']).default('demo'),
  zone: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a zone id such as pek3a').default(DEFAULT_ZONE),
  users: z.string().min(1).optional(),
  'strict-cors': z.boolean().default(false),
  'via-msw': z.boolean().default(false),
  'copy-limit': z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  'data-dir': z.string().min(1).optional(),
  log: z.enum(['text', 'json']).default('text'),
  quiet: z.boolean().default(false),
  help: z.boolean().default(false),
});

export const USAGE = [
  'usage: npm run serve:mock -- [--port 9000] [--host 127.0.0.1] [--domain qingstor.local]... [--seed demo|empty]',
  '                            [--zone pek3a] [--users users.json] [--data-dir DIR] [--log text|json] [--quiet]',
  '                            [--strict-cors] [--via-msw] [--copy-limit bytes]',
  '  --data-dir keep buckets, objects and uploads in DIR (records in DIR/records.sqlite, bodies in DIR/bodies);',
  '             they survive a restart and a crash. A new DIR gets the seed, an existing one is loaded as it is',
  '  --log text|json  access log on standard output, one line per request (default text); --quiet for none.',
  '             A refused signature logs the string-to-sign the server computed (never a secret)',
  '  --users   JSON file: [{"id":"usr-…","access_key_id":"…","secret_access_key":"…"}]',
  '  --copy-limit largest source of one copy and range of one part copy, in bytes (default 5 GiB); bigger: entity_too_large',
  '  --via-msw answer through msw getResponse instead of calling the emulator directly (slower, same answers)',
  '  env QS_ACCESS_KEY_ID / QS_SECRET_ACCESS_KEY replace the key pair of the single default user',
].join('\n');

/** Parses argv (without node and script). Returns 'help' for --help; throws Error with a readable message. */
export function parseCli(argv: readonly string[]): CliOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      domain: { type: 'string', multiple: true },
      seed: { type: 'string' },
      zone: { type: 'string' },
      users: { type: 'string' },
      'strict-cors': { type: 'boolean' },
      'via-msw': { type: 'boolean' },
      'copy-limit': { type: 'string' },
      'data-dir': { type: 'string' },
      log: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  const parsed = cliSchema.safeParse({ ...values, domain: values.domain?.map((d) => d.toLowerCase()) });
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('\n'));
  }
  const v = parsed.data;
  if (v.help) return 'help';
  return { port: v.port, host: v.host, domains: v.domain, seed: v.seed, defaultZone: v.zone, usersFile: v.users, strictCors: v['strict-cors'], viaMsw: v['via-msw'], dataDir: v['data-dir'], log: v.log, quiet: v.quiet, ...(v['copy-limit'] !== undefined ? { copyLimit: v['copy-limit'] } : {}) };
}

export interface ResolvedUsers {
  users: ServerUser[];
  source: UsersSource;
}

/**
 * The users the emulator accepts: the --users file if given, else the single default user (the seed's
 * owner) with the documented demo keys, or the keys from QS_ACCESS_KEY_ID / QS_SECRET_ACCESS_KEY.
 */
export async function resolveUsers(usersFile: string | undefined, env: NodeJS.ProcessEnv, defaultUser: ServerUser): Promise<ResolvedUsers> {
  if (usersFile !== undefined) {
    return { users: parseUsersFile(await readFile(usersFile, 'utf8')), source: 'file' };
  }
  const ak = env.QS_ACCESS_KEY_ID;
  const sk = env.QS_SECRET_ACCESS_KEY;
  if ((ak === undefined) !== (sk === undefined)) {
    throw new Error('set both QS_ACCESS_KEY_ID and QS_SECRET_ACCESS_KEY, or neither');
  }
  if (ak !== undefined && sk !== undefined) {
    if (ak === '' || sk === '') throw new Error('QS_ACCESS_KEY_ID and QS_SECRET_ACCESS_KEY must not be empty');
    return { users: [{ ...defaultUser, accessKeyId: ak, secretAccessKey: sk }], source: 'env' };
  }
  return { users: [defaultUser], source: 'default' };
}
