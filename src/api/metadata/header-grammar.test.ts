import { describe, expect, it } from 'vitest';
import { cacheControlProblem, contentDispositionProblem, contentEncodingProblem, contentTypeProblem } from './header-grammar.ts';

describe('standard header grammar', () => {
  it('Content-Encoding: codings are tokens; the values that break Chromium are refused', () => {
    for (const ok of ['gzip', 'identity', 'br, gzip', 'x-custom,deflate', 'aws-chunked']) expect(contentEncodingProblem(ok)).toBeNull();
    for (const bad of ['a b', '"x"', 'x=y', 'gzip,', ',gzip', 'gzip;q=1', 'a/b', '']) expect(contentEncodingProblem(bad)).not.toBeNull();
  });

  it('Cache-Control: directives with optional token or quoted-string arguments', () => {
    for (const ok of ['no-cache', 'private, max-age=600', 'public,max-age=31536000,immutable', 'no-cache="set-cookie, x-a"', 'stale-while-revalidate=30']) {
      expect(cacheControlProblem(ok)).toBeNull();
    }
    for (const bad of ['max age=1', 'max-age=', '=1', 'a,,b', 'no-cache="unterminated', 'a b']) expect(cacheControlProblem(bad)).not.toBeNull();
  });

  it('Content-Disposition: a type token and parameters, RFC 5987 filename* included', () => {
    for (const ok of ['inline', 'attachment', 'attachment; filename="download-me.txt"', "attachment; filename=\"%E6%8A%A5.pdf\"; filename*=utf-8''%E6%8A%A5.pdf", 'attachment;filename=a.txt', 'attachment; filename="a \\"quoted\\" name.txt"']) {
      expect(contentDispositionProblem(ok)).toBeNull();
    }
    for (const bad of ['attachment filename=a', 'attachment; filename', 'attachment; filename="open', '; filename=a', 'in line']) expect(contentDispositionProblem(bad)).not.toBeNull();
  });

  it('Content-Type: type/subtype with parameters', () => {
    for (const ok of ['text/plain', 'text/plain; charset=utf-8', 'application/vnd.api+json', 'multipart/form-data; boundary="a b"', 'text/plain;']) expect(contentTypeProblem(ok)).toBeNull();
    for (const bad of ['text', 'text/', '/plain', 'text plain', 'text/plain; charset']) expect(contentTypeProblem(bad)).not.toBeNull();
  });
});
