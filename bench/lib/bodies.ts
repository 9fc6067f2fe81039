/**
 * Chat-channel bodies as real clients send them (issue 23, goal 0): every
 * message carries a `message.id` (a UUID), the sender its id, name, e-mail,
 * phone and url (the same details on every message of one sender, as a client
 * that copies them from its user record), and the whole JSON body is 280–320
 * bytes (300 on average), plain text in ASCII. Every benchmark that POSTs to
 * the chat channel builds its bodies here, so the mix stated in
 * docs/BENCHMARKS.md is the one sent; `bodyStats()` counts what was built.
 */
import crypto from 'node:crypto';
import type { BodyFn } from './load.js';

const FIRST = ['Anna', 'Ben', 'Chloe', 'David', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemal', 'Lena', 'Marta', 'Nils', 'Olga', 'Paulo'];
const LAST = ['Schmidt', 'Okafor', 'Dubois', 'Kowalski', 'Garcia', 'Lindqvist', 'Tanaka', 'Rossi', 'Novak', 'Haddad', 'Jensen', 'Moreau', 'Silva'];
const PAGES = ['products/espresso-pro', 'checkout', 'account/orders', 'help/shipping', 'products/grinder', 'cart'];
const WORDS =
  'hello I ordered the machine last week and the tracking page still says it is waiting for the carrier could you tell me when it ships and whether I can change the delivery address to my office thanks a lot'.split(
    ' ',
  );

/** Whole-body size: 280 + 0…40 bytes, varied per message, averaging 300. */
const TARGET_MIN = 280;
const TARGET_SPREAD = 41;

export type Senders = 'new' | { pool: number };

export interface BodyOptions {
  /** Prefix of new senders' ids and of the reference each text ends with (unique per run and server). */
  tag: string;
  /** A new sender on every message, or senders taken in turn from a pool (existing conversations). */
  senders: Senders;
}

interface Tally {
  count: number;
  bytes: number;
  min: number;
  max: number;
  withMessageId: number;
}
const tally: Tally = { count: 0, bytes: 0, min: Infinity, max: 0, withMessageId: 0 };

/** What every body built so far looked like (for the goal-0 row of the summary). */
export function bodyStats(): Readonly<Tally> {
  return { ...tally };
}

/** The reference at the end of message n's text: frames are matched to their POST by it. */
export const refOf = (tag: string, n: number): string => `${tag}${n}`;
/** Reads the reference back out of a frame's text (the last `(ref …)` in it). */
export const REF_PATTERN = /\(ref ([\w.-]+)\)/;

function sender(tag: string, s: number, pool: boolean) {
  const first = FIRST[s % FIRST.length];
  const last = LAST[(s * 7) % LAST.length];
  return {
    id: pool ? `customer-${s}` : `${tag}-${s}`,
    name: `${first} ${last}`,
    email: `${first}.${last}${s}@example.com`.toLowerCase(),
    phone: `+1555${String(s % 10_000_000).padStart(7, '0')}`,
    url: `https://shop.example.com/${PAGES[s % PAGES.length]}`,
  };
}

function text(n: number, ref: string, room: number): string {
  const tail = ` (ref ${ref})`;
  const words: string[] = [];
  let length = tail.length;
  for (let w = n % WORDS.length; length < room; w = (w + 1) % WORDS.length) {
    words.push(WORDS[w]);
    length += WORDS[w].length + 1;
  }
  return (words.join(' ').slice(0, Math.max(1, room - tail.length)) + tail).trim();
}

/** Body n of a run: JSON text ready to POST to the chat channel. */
export function realBodies(o: BodyOptions): BodyFn {
  const pool = o.senders === 'new' ? null : o.senders.pool;
  return (n) => {
    const message = { id: crypto.randomUUID(), type: 'text', text: '' };
    const body = { sender: sender(o.tag, pool === null ? n : n % pool, pool !== null), message };
    const target = TARGET_MIN + ((n * 17) % TARGET_SPREAD);
    const room = target - Buffer.byteLength(JSON.stringify(body));
    message.text = text(n, refOf(o.tag, n), room);
    const json = JSON.stringify(body);
    const bytes = Buffer.byteLength(json);
    tally.count++;
    tally.bytes += bytes;
    tally.min = Math.min(tally.min, bytes);
    tally.max = Math.max(tally.max, bytes);
    if (message.id) tally.withMessageId++;
    return json;
  };
}

/** The mix, in words, for the benchmarks' sections of docs/BENCHMARKS.md. */
export const MIX =
  'Bodies as real clients send them: every message a text with a `message.id` (a UUID), the sender with id, name, e-mail, phone and url (the same on every message of one sender), 280–320 bytes of JSON (300 on average)';
