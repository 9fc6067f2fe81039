/**
 * The chat channel's throughput against its baselines (issue 23, goals 1 and
 * 2): the built Parley, the rows baseline, the same with Parley's search
 * indexes and the single-insert baseline run side by side on one store,
 * each its own process, and take turns under a closed loop of CONCURRENCY
 * connections (bench/lib/rounds.ts), in two scenarios, each on fresh stores:
 *   - new: a new sender on every request (every message opens a visitor and
 *     a chat);
 *   - existing: senders from a pool of POOL, every one with its open chat
 *     before the rounds start.
 * On every side that tells agents, an agent's socket is open and receives
 * every message (issue 39): Parley's stream (`/api/v1/stream`, the admin
 * signed in) and the rows baselines' `/ws`; the single-insert floor has none.
 */
import { AgentFrames } from '../lib/agentFrames.js';
import { startBaseline, type Baseline } from '../lib/baselines.js';
import { realBodies } from '../lib/bodies.js';
import { closedLoop } from '../lib/load.js';
import type { LoadWatch } from '../lib/machine.js';
import { alternate, type Contender, type Turn } from '../lib/rounds.js';
import { chatApiSetup, cleanup, startParley, type Db } from '../lib/server.js';

export const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 50);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
export const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
export const POOL = 500;
const SETTLE_MS = 1000;

export type Scenario = 'new' | 'existing';
/** Both by default; BENCH_SCENARIOS=existing (or new) runs one. */
export const SCENARIOS = (process.env.BENCH_SCENARIOS ?? 'new,existing').split(',').filter((s): s is Scenario => s === 'new' || s === 'existing');
export const SERVERS = ['Parley', 'rows baseline', 'rows + search index', 'single insert'] as const;
export type ServerName = (typeof SERVERS)[number];

export interface ScenarioResult {
  db: Db;
  scenario: Scenario;
  /** Each server's turns, in round order. */
  turns: Record<ServerName, Turn[]>;
  /** The `message.created` frames each side's agent socket received (warm-up and rounds). */
  frames: Partial<Record<ServerName, number>>;
}

const BASELINE_NAME: Record<Baseline['kind'], ServerName> = { rows: 'rows baseline', search: 'rows + search index', single: 'single insert' };

function contenders(parley: { url: string; pid: number }, baselines: Baseline[], scenario: Scenario): Contender[] {
  const all = [{ name: 'Parley', url: parley.url, pid: parley.pid }, ...baselines.map((b) => ({ name: BASELINE_NAME[b.kind], url: b.url, pid: b.pid }))];
  return all.map((c, i) => ({
    ...c,
    // New senders: a tag of their own per round and server, so no sender is ever seen twice.
    bodies: (round: number) => realBodies({ tag: `${scenario}${round}s${i}-`, senders: scenario === 'new' ? 'new' : { pool: POOL } }),
  }));
}

/** Opens the pool's conversations (two messages from every sender) or warms the server up (new senders). */
async function warm(c: Contender, scenario: Scenario): Promise<void> {
  const bodies = realBodies({ tag: `warm-${scenario}-`, senders: scenario === 'new' ? 'new' : { pool: POOL } });
  await closedLoop(c.url, bodies, scenario === 'new' ? { concurrency: CONCURRENCY, seconds: 2 } : { concurrency: CONCURRENCY, seconds: 60, count: 2 * POOL });
}

/** One scenario on fresh stores: a new Parley and new baselines, so no scenario inherits another's rows. */
async function benchScenario(db: Db, scenario: Scenario, load: LoadWatch): Promise<ScenarioResult> {
  const parley = await startParley({ db });
  const baselines: Baseline[] = [];
  const listeners = new Map<ServerName, AgentFrames>();
  try {
    const { endpointUrl, token } = await chatApiSetup(parley.base, { name: 'bench' });
    baselines.push(await startBaseline('rows', db, parley.dataDir, parley.schema));
    baselines.push(await startBaseline('search', db, parley.dataDir, parley.schema));
    baselines.push(await startBaseline('single', db, parley.dataDir, parley.schema));
    const list = contenders({ url: endpointUrl, pid: parley.pid }, baselines, scenario);
    // The agent's socket on each side, open through warm-up and rounds.
    listeners.set('Parley', await AgentFrames.open(parley.ws, token));
    for (const b of baselines) {
      if (b.kind !== 'single') listeners.set(BASELINE_NAME[b.kind], await AgentFrames.openUrl(`${b.url.replace(/^http/, 'ws').replace(/\/rows\/1$/, '')}/ws`));
    }
    for (const c of list) await warm(c, scenario);
    const turns = await alternate(list, { rounds: ROUNDS, seconds: ROUND_SECONDS, concurrency: CONCURRENCY, settleMs: SETTLE_MS, load });
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const frames = Object.fromEntries([...listeners].map(([name, l]) => [name, l.received]));
    return { db, scenario, turns: Object.fromEntries(SERVERS.map((s) => [s, turns.get(s)!])) as Record<ServerName, Turn[]>, frames };
  } finally {
    for (const l of listeners.values()) l.close();
    for (const b of baselines) await b.stop();
    await parley.stop();
    await cleanup(parley);
  }
}

export async function benchThroughput(db: Db, load: LoadWatch): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of SCENARIOS) {
    process.stderr.write(`  ${db}, ${scenario === 'new' ? 'a new sender on every request' : `existing conversations (${POOL} senders)`}…\n`);
    results.push(await benchScenario(db, scenario, load));
  }
  return results;
}
