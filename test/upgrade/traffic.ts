/**
 * Traffic of the upgrade tests (rolling.test.ts, expandMigration.test.ts):
 * chat-channel senders and an agent reading through a load balancer's
 * rotation of instances, every answer recorded; and the checks on it: what
 * failed (a 5xx or no connection) and that every message answered 200 is in
 * the database.
 */
import pg from 'pg';
import { expect } from 'vitest';
import type { Instance as ClusterInstance } from '../scale/cluster.js';

/** A running instance, with the requests sent to it that have not been answered yet. */
export type Instance = ClusterInstance & { inFlight: number };

export interface Outcome {
  kind: 'message' | 'read';
  via: string;
  what: string;
  status: number | 'no connection';
  body: string;
  at: number;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the agent reads, in turn, by default: each a `select` of tables a migration may change. */
export const READS = ['/api/v1/chats?status=pending', '/api/v1/settings', '/api/v1/me', '/api/v1/agents', '/api/v1/channels'];

export interface Traffic {
  outcomes: Outcome[];
  /** Stops sending and waits for the requests in flight. */
  stop(): Promise<void>;
}

/**
 * `senders` chat-channel senders (one message each 15 ms, each with a message.id) to `inbound`,
 * and an agent reading `reads` in turn with `token` every 50 ms, through `rotation` (waiting while
 * it is empty).
 */
export function startTraffic({
  rotation,
  inbound,
  token,
  senders,
  reads = READS,
}: {
  rotation: Instance[];
  inbound: string;
  token: string;
  senders: number;
  reads?: string[];
}): Traffic {
  const outcomes: Outcome[] = [];
  let stopping = false;
  const pick = async (n: number): Promise<Instance> => {
    while (rotation.length === 0) await sleep(20);
    return rotation[n % rotation.length];
  };
  const call = async (kind: Outcome['kind'], via: Instance, what: string, url: string, init: RequestInit): Promise<void> => {
    via.inFlight++;
    try {
      const res = await fetch(`${via.base}${url}`, { ...init, signal: AbortSignal.timeout(20_000) });
      outcomes.push({ kind, via: via.name, what, status: res.status, body: await res.text(), at: Date.now() });
    } catch (err) {
      outcomes.push({ kind, via: via.name, what, status: 'no connection', body: String(err), at: Date.now() });
    } finally {
      via.inFlight--;
    }
  };
  const sending = Array.from({ length: senders }, async (_, s) => {
    for (let n = 0; !stopping; n++) {
      const via = await pick(n + s);
      const text = `traffic ${s}-${n} via ${via.name}`;
      const body = JSON.stringify({ sender: { id: `sender-${s}` }, message: { type: 'text', text, id: `m-${s}-${n}` } });
      await call('message', via, text, inbound, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await sleep(15);
    }
  });
  const reading = (async () => {
    for (let n = 0; !stopping; n++) {
      const via = await pick(n);
      const url = reads[n % reads.length];
      await call('read', via, `GET ${url}`, url, { headers: { authorization: `Bearer ${token}` } });
      await sleep(50);
    }
  })();
  return {
    outcomes,
    stop: async () => {
      stopping = true;
      await Promise.all([...sending, reading]);
    },
  };
}

export const failed = (o: Outcome): boolean => o.status === 'no connection' || o.status >= 500;

/** Failures counted by instance, kind, status and error code, and when (ms after `from`). */
export function summary(list: Outcome[], from: number): string {
  const groups = new Map<string, { n: number; first: number; last: number }>();
  for (const o of list) {
    const code = /"code":("?[\w]+"?)/.exec(o.body)?.[1] ?? '';
    const key = `${o.via} ${o.kind} ${o.status} ${code}`;
    const g = groups.get(key) ?? { n: 0, first: o.at - from, last: o.at - from };
    g.n++;
    g.last = o.at - from;
    groups.set(key, g);
  }
  return [...groups].map(([k, g]) => `${k} x${g.n} (${g.first}..${g.last} ms)`).join('; ') || 'none';
}

/** The texts of the visitors' messages stored in `schema`. */
export async function storedTexts(url: string, schema: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ text: string }>(`select text from "${schema}".messages where author = 'visitor'`);
    return new Set(rows.map((r) => r.text));
  } finally {
    await client.end();
  }
}

/** Every message answered 200 is in the database, and nothing else is. */
export function expectNothingLost(outcomes: Outcome[], stored: Set<string>): void {
  const answered = outcomes.filter((o) => o.kind === 'message' && o.status === 200).map((o) => o.what);
  expect(answered.filter((t) => !stored.has(t))).toEqual([]);
  expect(stored.size).toBe(answered.length);
}
