/**
 * Chat-channel inbound benchmark (issues 3 and 23), on each store:
 *   - throughput of the built Parley against the rows baseline and the
 *     single-insert baseline, taking turns, for a new sender on every request
 *     and for existing conversations (bench/chat-channel/throughput.ts);
 *   - POST → agent stream frame latency, sequential and at a fixed rate
 *     (bench/chat-channel/frames.ts).
 * Writes its section of docs/BENCHMARKS.md and its summary rows
 * (bench/chat-channel/report.ts).
 */
import { benchFrames, type FramesResult } from './chat-channel/frames.js';
import { writeChatChannel } from './chat-channel/report.js';
import { benchThroughput, type ScenarioResult } from './chat-channel/throughput.js';
import { LoadWatch } from './lib/machine.js';
import type { Db } from './lib/server.js';

export async function runChatChannelBench(dbs: Db[]): Promise<void> {
  const load = new LoadWatch();
  const throughput: ScenarioResult[] = [];
  const frames: FramesResult[] = [];
  for (const db of dbs) {
    process.stderr.write(`chat-channel benchmark on ${db}: frames…\n`);
    frames.push(...(await benchFrames(db, load)));
    process.stderr.write(`chat-channel benchmark on ${db}: throughput…\n`);
    throughput.push(...(await benchThroughput(db, load)));
  }
  writeChatChannel(throughput, frames, load);
}
