/**
 * The organization owning an address (its autonomous system's holder), from the
 * RouteViews + DB-IP ASN tables shipped in node_modules/@ip-location-db/asn
 * (CC BY 4.0: the agent app credits DB-IP and RouteViews where it shows the
 * organization; README "Data shipped with Parley"). The tables (about 410,000
 * IPv4 and 100,000 IPv6 ranges) are read once, lazily, on the first lookup, a
 * line at a time so the server keeps answering meanwhile, into sorted typed
 * arrays searched by bisection: about 40 MB in memory (measured), 2 s to read. A table that cannot be
 * read gives no organization; a session never fails for want of it.
 */
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';

interface Table<T> {
  starts: T;
  ends: T;
  names: Uint32Array;
}

interface Tables {
  v4: Table<Uint32Array>;
  /** IPv6 ranges as two 64-bit halves each (high, low), interleaved. */
  v6: Table<BigUint64Array>;
  organizations: string[];
}

const require = createRequire(import.meta.url);
let tables: Promise<Tables | null> | null = null;

/** Where the tables are; resolved through the package so it works from dist/ too. */
export function asnDirectory(): string {
  return path.dirname(require.resolve('@ip-location-db/asn/package.json'));
}

/** One CSV line `start,end,asn,name` (the name quoted when it holds a comma, `""` inside) → [start, end, name]. */
export function parseAsnLine(line: string): [string, string, string] | null {
  const first = line.indexOf(',');
  const second = line.indexOf(',', first + 1);
  const third = line.indexOf(',', second + 1);
  if (first < 1 || second < 0 || third < 0) return null;
  let name = line.slice(third + 1);
  if (name.startsWith('"') && name.endsWith('"') && name.length >= 2) name = name.slice(1, -1).replaceAll('""', '"');
  return [line.slice(0, first), line.slice(first + 1, second), name.trim()];
}

async function readRanges(file: string, onRange: (start: string, end: string, name: string) => void): Promise<void> {
  const lines = readline.createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    const parsed = parseAsnLine(line);
    if (parsed) onRange(...parsed);
  }
}

/** Grows a typed array by doubling; the tables' sizes are not known before reading them. */
class Column<T extends Uint32Array | BigUint64Array> {
  length = 0;
  constructor(
    public data: T,
    private readonly make: (size: number) => T,
  ) {}
  push(value: T extends Uint32Array ? number : bigint): void {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data as never);
      this.data = bigger;
    }
    (this.data as unknown as (number | bigint)[])[this.length++] = value;
  }
  done(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

async function load(): Promise<Tables> {
  const organizations: string[] = [];
  const index = new Map<string, number>();
  const nameId = (name: string): number => {
    let id = index.get(name);
    if (id === undefined) {
      id = organizations.push(name) - 1;
      index.set(name, id);
    }
    return id;
  };
  const dir = asnDirectory();
  const u32 = (n: number) => new Uint32Array(n);
  const u64 = (n: number) => new BigUint64Array(n);
  const v4 = { starts: new Column(u32(1 << 19), u32), ends: new Column(u32(1 << 19), u32), names: new Column(u32(1 << 19), u32) };
  await readRanges(path.join(dir, 'asn-ipv4-num.csv'), (start, end, name) => {
    v4.starts.push(Number(start));
    v4.ends.push(Number(end));
    v4.names.push(nameId(name));
  });
  const v6 = { starts: new Column(u64(1 << 18), u64), ends: new Column(u64(1 << 18), u64), names: new Column(u32(1 << 17), u32) };
  const mask = (1n << 64n) - 1n;
  await readRanges(path.join(dir, 'asn-ipv6-num.csv'), (start, end, name) => {
    const s = BigInt(start);
    const e = BigInt(end);
    v6.starts.push(s >> 64n);
    v6.starts.push(s & mask);
    v6.ends.push(e >> 64n);
    v6.ends.push(e & mask);
    v6.names.push(nameId(name));
  });
  return {
    v4: { starts: v4.starts.done(), ends: v4.ends.done(), names: v4.names.done() },
    v6: { starts: v6.starts.done(), ends: v6.ends.done(), names: v6.names.done() },
    organizations,
  };
}

function openTables(onError?: (err: unknown) => void): Promise<Tables | null> {
  tables ??= load().catch((err: unknown) => {
    onError?.(err);
    return null;
  });
  return tables;
}

/** The last range starting at or before `key`, by bisection; `compare(i)` is start[i] ≤ key. */
function lastStartAtOrBefore(count: number, startsAtOrBefore: (i: number) => boolean): number {
  let lo = 0;
  let hi = count - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (startsAtOrBefore(mid)) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function v4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** A full IPv6 address as a 128-bit number (`::` expanded, an embedded IPv4 tail read as two groups). */
export function v6Number(address: string): bigint {
  let text = address.toLowerCase();
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4Tail) {
    const n = v4Number(v4Tail[1]);
    text = `${text.slice(0, -v4Tail[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((n, group) => (n << 16n) | BigInt(parseInt(group || '0', 16)), 0n);
}

/** The organization owning a public address, or undefined (unknown, private, or the tables unreadable). */
export async function lookupOrganization(address: string, onError?: (err: unknown) => void): Promise<string | undefined> {
  const family = net.isIP(address);
  if (family === 0) return undefined;
  const t = await openTables(onError);
  if (!t) return undefined;
  let i: number;
  if (family === 4) {
    const key = v4Number(address);
    i = lastStartAtOrBefore(t.v4.starts.length, (k) => t.v4.starts[k] <= key);
    if (i < 0 || t.v4.ends[i] < key) return undefined;
    return t.organizations[t.v4.names[i]] || undefined;
  }
  const key = v6Number(address);
  const hi = key >> 64n;
  const lo = key & ((1n << 64n) - 1n);
  const at = (col: BigUint64Array, k: number): [bigint, bigint] => [col[2 * k], col[2 * k + 1]];
  const le = (a: [bigint, bigint], b: [bigint, bigint]) => a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]);
  i = lastStartAtOrBefore(t.v6.names.length, (k) => le(at(t.v6.starts, k), [hi, lo]));
  if (i < 0 || !le([hi, lo], at(t.v6.ends, i))) return undefined;
  return t.organizations[t.v6.names[i]] || undefined;
}
