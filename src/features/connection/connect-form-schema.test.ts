import { describe, expect, it } from 'vitest';
import { connectFormSchema, DEFAULT_FORM, sessionFromForm, suggestZoneInHost } from './connect-form-schema.ts';

const messages = (input: unknown) => {
  const result = connectFormSchema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('connect form', () => {
  it('reports each invalid field with an i18n key', () => {
    expect(messages({ ...DEFAULT_FORM, endpoint: 'ftp://x', zones: ' , ' })).toEqual({
      endpoint: 'connect.error.endpoint',
      zones: 'connect.error.zones',
      accessKeyId: 'connect.error.accessKey',
      secretAccessKey: 'connect.error.secret',
    });
    expect(messages({ ...DEFAULT_FORM, kind: 'anonymous', endpoint: 'https://qingstor.com' })).toEqual({ bucket: 'connect.error.bucket' });
    expect(messages({ ...DEFAULT_FORM, endpoint: 'https://u:p@qingstor.com', accessKeyId: 'a', secretAccessKey: 'b' })).toEqual({
      endpoint: 'connect.error.endpoint',
    });
  });

  it('builds the session: zones split, first zone default, no credentials when anonymous', () => {
    const keyed = sessionFromForm({
      ...DEFAULT_FORM, endpoint: 'http://127.0.0.1:9000/', zones: 'sh1a, pek3a', zoneInHost: false, accessKeyId: ' AK ', secretAccessKey: 'S K', bucket: 'my-bucket',
    });
    expect(keyed).toEqual({
      mode: 'endpoint',
      connection: { endpoint: 'http://127.0.0.1:9000', zoneInHost: false, style: 'path', defaultZone: 'sh1a', credentials: { accessKeyId: 'AK', secretAccessKey: 'S K' } },
      zones: ['sh1a', 'pek3a'],
      bucket: { zone: 'sh1a', name: 'my-bucket' },
    });
    const anonymous = sessionFromForm({ ...DEFAULT_FORM, kind: 'anonymous', endpoint: 'https://qingstor.com', accessKeyId: 'AK', secretAccessKey: 'SK', bucket: 'pub-bucket' });
    expect(anonymous.mode).toBe('anonymous');
    expect(anonymous.connection.credentials).toBeUndefined();
  });

  it('accepts an optional copy limit in bytes and carries it into the connection; empty means QingStor’s', () => {
    const form = { ...DEFAULT_FORM, endpoint: 'http://127.0.0.1:9000', accessKeyId: 'a', secretAccessKey: 'b' };
    for (const bad of ['0', '-5', '1.5', '5GB', '1e9', '99999999999999999']) {
      expect(messages({ ...form, copyLimit: bad })).toEqual({ copyLimit: 'connect.error.copyLimit' });
    }
    expect(messages({ ...form, copyLimit: ' 65536 ' })).toEqual({});
    expect(sessionFromForm({ ...form, copyLimit: ' 65536 ' }).connection.copyLimit).toBe(65536);
    expect('copyLimit' in sessionFromForm(form).connection).toBe(false);
  });

  it('accepts an optional same-origin proxy and carries it into the connection', () => {
    const form = { ...DEFAULT_FORM, endpoint: 'http://127.0.0.1:9000', accessKeyId: 'a', secretAccessKey: 'b' };
    expect(messages({ ...form, proxy: 'not a path' })).toEqual({ proxy: 'connect.error.proxy' });
    expect(messages({ ...form, proxy: '/_qs' })).toEqual({});
    expect(sessionFromForm({ ...form, proxy: ' /_qs ' }).connection.proxy).toBe('/_qs');
    expect('proxy' in sessionFromForm(form).connection).toBe(false);
    expect(messages({ ...form, endpoint: 'http://127.0.0.1:9000/some/path' })).toEqual({ endpoint: 'connect.error.endpoint' });
  });

  it('suggests zone labels only for named multi-label hosts', () => {
    expect(suggestZoneInHost('https://qingstor.com')).toBe(true);
    expect(suggestZoneInHost('http://127.0.0.1:9000')).toBe(false);
    expect(suggestZoneInHost('http://localhost:8080')).toBe(false);
    expect(suggestZoneInHost('http://[::1]:9000')).toBe(false);
    expect(suggestZoneInHost('not a url')).toBeUndefined();
  });
});
