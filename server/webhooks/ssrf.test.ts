/** The SSRF guard: address classification and host resolution. */
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/AppError.js';
import { classifyAddress, parseOutboundUrl, resolveTarget } from './ssrf.js';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['198.18.0.1', 'benchmarking'],
    ['192.0.2.10', 'documentation'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback address (IPv4-mapped)'],
    ['::ffff:7f00:1', 'loopback address (IPv4-mapped)'],
    ['::ffff:10.0.0.1', 'private address (IPv4-mapped)'],
    ['::ffff:169.254.169.254', 'link-local address (IPv4-mapped)'],
    ['::127.0.0.1', 'loopback address (IPv4-compatible)'],
    ['64:ff9b::a00:1', 'private address (NAT64)'],
    ['2002:7f00:1::', 'loopback address (6to4)'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['4000::1', 'reserved'],
  ])('refuses %s (%s)', (ip, reason) => {
    expect(classifyAddress(ip)).toContain(reason);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('accepts the public address %s', (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });

  it('treats garbage as refused', () => {
    expect(classifyAddress('not-an-ip')).not.toBeNull();
    expect(classifyAddress('1::2::3')).not.toBeNull();
  });
});

describe('resolveTarget', () => {
  const refused = async (url: string): Promise<string> => {
    try {
      await resolveTarget(url, false);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('outbound_url_refused');
      return (err as AppError).message;
    }
    throw new Error(`${url} was not refused`);
  };

  it('refuses a host name that resolves to loopback (localhost), naming the address', async () => {
    const message = await refused('http://localhost:8080/hook');
    expect(message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(message).toContain('OUTBOUND_ALLOW_PRIVATE');
  });

  it('refuses IP literals, bracketed IPv6 included', async () => {
    expect(await refused('http://127.0.0.1/x')).toContain('127.0.0.1 is a loopback address');
    expect(await refused('http://[::1]:9/x')).toContain('loopback');
    expect(await refused('https://[::ffff:169.254.169.254]/latest/meta-data')).toContain('link-local');
    expect(await refused('http://0x7f000001/')).toContain('loopback');
  });

  it('refuses schemes other than http and https', async () => {
    expect(() => parseOutboundUrl('ftp://example.com/x')).toThrow(/Only http and https/);
    expect(() => parseOutboundUrl('file:///etc/passwd')).toThrow(AppError);
    expect(() => parseOutboundUrl('not a url')).toThrow(/not a valid URL/);
  });

  it('lets private targets through when allowed, and pins public literals', async () => {
    await expect(resolveTarget('http://localhost:1/x', true)).resolves.toMatchObject({ addresses: null });
    const t = await resolveTarget('http://8.8.8.8/x', false);
    expect(t.addresses).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });
});
