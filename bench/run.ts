/**
 * npm run bench [-- --only=<name>] [-- --db=sqlite,postgres]: builds the server,
 * runs the benchmarks and rewrites their sections of docs/BENCHMARKS.md.
 */
import { execSync } from 'node:child_process';
import path from 'node:path';
import { runChatChannelBench } from './chat-channel.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dbs = (args.get('db') ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const only = args.get('only');

const benches: Record<string, () => Promise<void>> = {
  'chat-channel': () => runChatChannelBench(dbs),
};

execSync('npm run build:server', { cwd: path.resolve(import.meta.dirname, '..'), stdio: 'inherit' });
for (const [name, run] of Object.entries(benches)) {
  if (only && only !== name) continue;
  await run();
}
