/**
 * redactUrl: every query name the app could read as `token` / `access_token`
 * has its value replaced, however it is written — percent-encoded, with NULs
 * (app.ts removes them from query keys), case or spaces — and nothing else
 * in the URL changes.
 */
import { describe, expect, it } from 'vitest';
import { redactUrl } from './logRedaction.js';

describe('redactUrl', () => {
  it.each([
    ['token', 'token'],
    ['TOKEN', 'TOKEN'],
    ['%74oken', '%74oken'],
    ['%74%6F%6B%65%6E', '%74%6F%6B%65%6E'],
    ['token%00', 'token%00'],
    ['%00token', '%00token'],
    ['t%00o%00k%00e%00n', 't%00o%00k%00e%00n'],
    ['token%00%00', 'token%00%00'],
    ['to%00%6Ben', 'to%00%6Ben'],
    ['token%0A', 'token%0A'],
    ['token%7F', 'token%7F'],
    ['token+', 'token+'],
    ['%20token%20', '%20token%20'],
    ['access%5Ftoken', 'access%5Ftoken'],
    ['access_token%00', 'access_token%00'],
  ])('redacts ?%s=', (name, shown) => {
    expect(redactUrl(`/api/v1/stream?cursor=3&${name}=s3cr3t-value&x=1`)).toBe(`/api/v1/stream?cursor=3&${shown}=[redacted]&x=1`);
  });

  it('keeps names that are not a secret one and the rest of the URL', () => {
    for (const url of ['/api/v1/chats?page=2&tokens=1', '/api/v1/chats?tok%65n2=1', '/a?%2574oken=1', '/a?to%C0%80ken=1', '/a?x=token', '/a#token=1']) {
      expect(redactUrl(url)).toBe(url);
    }
    expect(redactUrl('/wh/abc123/ch_1/status?token%00=v')).toBe('/wh/[redacted]/ch_1/status?token%00=[redacted]');
  });
});
