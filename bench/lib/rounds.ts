/**
 * Closed loops that take turns: each contender (Parley, a baseline) runs
 * alone for a few seconds, then the next, for several rounds, so that a
 * change of load on this shared machine hits all of them alike. The order
 * rotates from round to round (no contender always follows the same one), and
 * a short pause after each turn lets the server that just ran finish its
 * background work (Parley's relay, a WAL checkpoint) before the next is timed.
 */
import { closedLoop, type BodyFn } from './load.js';
import type { LoadWatch } from './machine.js';
import { cpuMs } from './server.js';
import { percentile } from './stats.js';

export interface Contender {
  name: string;
  url: string;
  pid: number;
  /** The bodies of one round (a new tag per round where senders must be new). */
  bodies(round: number): BodyFn;
}

export interface Turn {
  /** Answered 200 per second. */
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  /** Server CPU time (user + system) per message answered 200, in µs. */
  cpuUs: number;
}

export interface RoundOptions {
  rounds: number;
  seconds: number;
  concurrency: number;
  settleMs: number;
  load: LoadWatch;
}

/** Each contender's turns, in round order. */
export async function alternate(contenders: Contender[], o: RoundOptions): Promise<Map<string, Turn[]>> {
  const turns = new Map<string, Turn[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < o.rounds; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const c = contenders[(round + k) % contenders.length];
      o.load.sample();
      const cpu0 = cpuMs(c.pid);
      const r = await closedLoop(c.url, c.bodies(round), { concurrency: o.concurrency, seconds: o.seconds });
      const cpu = cpuMs(c.pid) - cpu0;
      turns.get(c.name)!.push({
        rate: r.ok / r.seconds,
        p50: percentile(r.latencies, 50),
        p99: percentile(r.latencies, 99),
        errors: r.errors,
        cpuUs: (cpu * 1000) / Math.max(1, r.ok),
      });
      await new Promise((resolve) => setTimeout(resolve, o.settleMs));
    }
  }
  return turns;
}
