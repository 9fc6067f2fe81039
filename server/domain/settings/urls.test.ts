import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/AppError.js';
import { checkHttpUrl, checkOutboundUrl, privateHostReason } from './urls.js';

const hostOf = (url: string): string => new URL(url).hostname;
const refused = (url: string): string | undefined => {
  try {
    checkOutboundUrl({ outboundAllowPrivate: false }, 'webhook_url', url);
    return undefined;
  } catch (err) {
    return (err as AppError).code;
  }
};

describe('privateHostReason', () => {
  it.each([
    'http://127.0.0.1/',
    'http://127.255.0.9/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.0.1/',
    'http://169.254.169.254/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[fc00::1]/',
    'http://[fdff::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://localhost/',
    'http://LOCALHOST./',
    'http://x.localhost/',
    'http://2130706433/',
    'http://0x7f.1/',
  ])('refuses %s', (url) => {
    expect(privateHostReason(hostOf(url))).toEqual(expect.any(String));
  });

  it.each(['https://example.com/', 'http://172.32.0.1/', 'http://8.8.8.8/', 'http://[2606:4700::1111]/', 'http://localhost.example.com/'])(
    'accepts %s',
    (url) => {
      expect(privateHostReason(hostOf(url))).toBeNull();
    },
  );
});

describe('checkOutboundUrl', () => {
  it('keeps the URL as written (trimmed), so plain-string joining works', () => {
    expect(checkOutboundUrl({ outboundAllowPrivate: false }, 'webhook_url', ' https://h.example.com/in?c= ')).toBe('https://h.example.com/in?c=');
    expect(checkOutboundUrl({ outboundAllowPrivate: false }, 'webhook_url', 'https://H.example.com')).toBe('https://H.example.com');
  });

  it('refuses private hosts unless allowed, and bad URLs always', () => {
    expect(refused('http://127.0.0.1:9/x')).toBe('outbound_url_refused');
    expect(checkOutboundUrl({ outboundAllowPrivate: true }, 'webhook_url', 'http://127.0.0.1:9/x')).toBe('http://127.0.0.1:9/x');
    for (const bad of ['', 'ftp://a.example', 'https://a.example/#x', 'https://a .example', 'http://', '/relative']) {
      expect(refused(bad), bad).toBe('validation_failed');
    }
  });

  it('checkHttpUrl names the field in its sentence', () => {
    expect(() => checkHttpUrl('safe_url', 'mailto:a@b.c')).toThrow(/safe_url must be an absolute http/);
  });
});
