/** The widget's pure rules: allowed hosts, Safe URL links, custom data cleaning, upload names and types, GeoIP and user-agent parsing. */
import { describe, expect, it } from 'vitest';
import { lookupGeoip, plainIp } from '../../lib/geoip.js';
import { parseUserAgent } from '../../lib/userAgent.js';
import { checkOrigin, hostAllowed } from './allowedDomains.js';
import { cleanCustomData, linkAllowed } from './setCustomData.js';
import { displayName, storedName, uploadFile } from '../uploads/storeUpload.js';
import { uploadTypeOf } from '../uploads/uploadTypes.js';

describe('widget rules', () => {
  it('matches allowed hosts exactly, and *. entries on subdomains only', () => {
    const list = ['shop.example.com', '*.brand.example'];
    expect(hostAllowed(list, 'shop.example.com')).toBe(true);
    expect(hostAllowed(list, 'SHOP.example.com.')).toBe(true);
    expect(hostAllowed(list, 'x.shop.example.com')).toBe(false);
    expect(hostAllowed(list, 'a.b.brand.example')).toBe(true);
    expect(hostAllowed(list, 'brand.example')).toBe(false);
    expect(hostAllowed(list, 'evilbrand.example')).toBe(false);
    const channel = { options_json: JSON.stringify({ allowed_domains: list }) };
    expect(() => checkOrigin(channel, 'null', 'https://chat.example.org')).toThrow(/not enabled/);
    expect(() => checkOrigin(channel, 'https://chat.example.org', 'https://chat.example.org')).not.toThrow();
    expect(() => checkOrigin({ options_json: '{}' }, 'https://evil.example', 'https://chat.example.org')).not.toThrow();
  });

  it('keeps links on the Safe URL host and its subdomains only', () => {
    expect(linkAllowed('https://evil.example/x', null)).toBe(true);
    expect(linkAllowed('https://shop.example.com/a', 'https://shop.example.com')).toBe(true);
    expect(linkAllowed('http://a.shop.example.com/a', 'https://shop.example.com/path')).toBe(true);
    expect(linkAllowed('https://shop.example.com.evil.example/', 'https://shop.example.com')).toBe(false);
    expect(linkAllowed('https://xshop.example.com/', 'https://shop.example.com')).toBe(false);
  });

  it('cleans custom data: objects only, string values only, empty fields dropped', () => {
    expect(cleanCustomData([null, 'x', [1], { title: 5, content: '  ' }, { key: 'Plan', content: 'Pro', extra: 'dropped' }], null)).toEqual([
      { key: 'Plan', content: 'Pro' },
    ]);
    expect(() => cleanCustomData({ 0: { title: 'x' } }, null)).toThrow('Custom data must be array.');
  });

  it('names uploads safely and recognises allowed types only', () => {
    const pdf = uploadTypeOf('Application/PDF; charset=binary');
    expect(pdf?.ext).toBe('pdf');
    expect(uploadTypeOf('text/html')).toBeNull();
    expect(uploadTypeOf('image/svg+xml')).toBeNull();
    expect(uploadTypeOf(undefined)).toBeNull();
    expect(displayName('..%2F..%2Fetc%2Fpasswd', pdf!)).toBe('....etcpasswd');
    const name = storedName('../../x y.exe', pdf!);
    expect(name).toMatch(/^[a-z0-9]{24}-x_y\.pdf$/);
    expect(uploadFile('/data', name)?.file).toBe(`/data/uploads/${name}`);
    expect(uploadFile('/data', '../uploads/x.pdf')).toBeNull();
  });

  it('looks up GeoIP for public addresses only', async () => {
    expect(plainIp('::ffff:8.8.8.8')).toBe('8.8.8.8');
    expect(plainIp('not an ip')).toBeNull();
    expect(await lookupGeoip('8.8.8.8')).toMatchObject({ country_code: 'US', latitude: expect.any(String), longitude: expect.any(String) });
    expect(await lookupGeoip('81.2.69.142')).toMatchObject({ country_code: 'GB', region_code: 'ENG', region: 'England', city: expect.any(String) });
    for (const ip of ['127.0.0.1', '10.1.2.3', '::1', undefined, 'garbage']) expect(await lookupGeoip(ip)).toEqual({});
  });

  it('parses browser, OS and device from the user agent', () => {
    expect(parseUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36')).toMatchObject({
      browser: { name: 'Chrome', version: '126.0.0.0' },
      os: { name: 'Windows', version: '10' },
    });
    expect(parseUserAgent(undefined)).toEqual({});
  });
});
