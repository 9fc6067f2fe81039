/**
 * Password hashing with scrypt (node:crypto), stored as
 * `scrypt$N$r$p$salt$hash`: the cost lives in each stored hash, so hashes made
 * at an older cost still verify, and are made again at the current cost at
 * the next successful sign-in (needsRehash; login.ts).
 *
 * The cost follows OWASP's password storage guidance for scrypt (#15 item
 * 11): N = 2^17, r = 8, p = 1, which takes 128 MiB and a few hundred
 * milliseconds of one core per hash (more on a busy machine). Node refuses
 * scrypt above 32 MiB unless told (maxmem), so every call passes a maxmem
 * derived from its own N and r. At most four hashes run at once (libuv's
 * thread pool), so sign-ins take up to 512 MiB at a peak.
 *
 * Tests may lower the cost for the hashes they make (lowerCostForTests,
 * called by the test setup file only, and refused outside Vitest), so that
 * creating hundreds of agents stays fast; production code never calls it,
 * and a lowered cost never leaks into production hashes.
 */
import crypto from 'node:crypto';

/** crypto.scrypt looked up at each call (not bound once), so a test can count the calls made through the real function. */
const scrypt = (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => crypto.scrypt(pw, salt, len, opts, (err, key) => (err ? reject(err) : resolve(key))));

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** The cost of new hashes in production (OWASP: N=2^17, r=8, p=1). */
export const PASSWORD_COST: Readonly<ScryptCost> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });
const KEYLEN = 32;
/** Stored parameters beyond these are not ours: refused rather than run (a stored N of 2^30 would take 128 GiB). */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

let cost: ScryptCost = PASSWORD_COST;

/** scrypt needs 128·N·r bytes (plus a little): room for that, whatever the cost. */
const maxmem = (c: ScryptCost): number => 2 * 128 * c.N * c.r;

function format(c: ScryptCost, salt: Buffer, hash: Buffer): string {
  return ['scrypt', c.N, c.r, c.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEYLEN, { ...cost, maxmem: maxmem(cost) });
  return format(cost, salt, hash);
}

interface Parsed {
  cost: ScryptCost;
  salt: Buffer;
  hash: Buffer;
}

function parse(stored: string): Parsed | null {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return null;
  const c = { N: Number(n), r: Number(r), p: Number(p) };
  const power = Number.isInteger(c.N) && c.N > 1 && (c.N & (c.N - 1)) === 0;
  if (!power || c.N > MAX_N || !Number.isInteger(c.r) || c.r < 1 || c.r > MAX_R || !Number.isInteger(c.p) || c.p < 1 || c.p > MAX_P) return null;
  const expected = Buffer.from(hash, 'base64');
  if (expected.length === 0) return null;
  return { cost: c, salt: Buffer.from(salt, 'base64'), hash: expected };
}

/**
 * Whether `password` matches `stored`. Always one scrypt at a real cost: a
 * stored value that is no hash (NO_PASSWORD of an invited or force-reset
 * agent, refused parameters) is checked against the dummy hash instead and
 * fails, so such an account answers a sign-in as slowly as any other and the
 * timing does not tell which e-mails have one (#31 item 6).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  const checked = parsed ?? dummyParsed();
  const actual = await scrypt(password, checked.salt, checked.hash.length, { ...checked.cost, maxmem: maxmem(checked.cost) });
  return crypto.timingSafeEqual(actual, checked.hash) && parsed !== null;
}

/** The dummy hash, parsed (it always parses: it is made here, at the current cost). */
function dummyParsed(): Parsed {
  const parsed = parse(dummyHash());
  if (!parsed) throw new Error('the dummy hash does not parse');
  return parsed;
}

/** Whether a stored hash was made at a lower cost than new ones are (then the next successful sign-in makes it again). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return false;
  const c = parsed.cost;
  return c.N < cost.N || c.r < cost.r || c.p < cost.p || parsed.hash.length < KEYLEN;
}

/**
 * A hash that matches nothing, at the current cost, checked when the e-mail is
 * unknown so that the time an answer takes does not tell which e-mails exist.
 */
export function dummyHash(): string {
  return format(cost, Buffer.alloc(16), Buffer.alloc(KEYLEN));
}

/** Tests only (test/setup/passwordCost.ts, the one caller): new hashes at a lower cost. No server module calls it. */
export function lowerCostForTests(testCost: ScryptCost): void {
  cost = testCost;
}

/** Tests only: back to the production cost (the rehash test). */
export function restoreProductionCost(): void {
  cost = PASSWORD_COST;
}

/** A stored hash that matches no password: an invited agent before its link is used, or after an admin forced a reset. */
export const NO_PASSWORD = '!';
