/**
 * npm run bench [-- --only=<name>] [-- --db=sqlite,postgres]: builds the server
 * (and the web apps, for the bundle sizes), runs the benchmarks one after the
 * other and rewrites their sections of docs/BENCHMARKS.md and its summary.
 * Names: chat-channel, fanout, deliveries, sockets, startup, bundle, reports, search, export, erasure, widget-load, routing, backup, and soak
 * (ten minutes; only with --only=soak). The
 * PostgreSQL runs are skipped, loudly, when no server answers.
 * Each benchmark is bounded in time and talks to 127.0.0.1 only.
 */
import { execSync } from 'node:child_process';
import { runBackupBench } from './backup.js';
import { runBundleBench } from './bundle.js';
import { runChatChannelBench } from './chat-channel.js';
import { runDeliveriesBench } from './deliveries.js';
import { runErasureBench } from './erasure.js';
import { runExportBench } from './export.js';
import { runFanoutBench } from './fanout.js';
import { runReportsBench } from './reports.js';
import { runSearchBench } from './search.js';
import { runRoutingBench } from './routing.js';
import { pgReachable, ROOT, type Db } from './lib/server.js';
import { runSocketsBench } from './sockets.js';
import { runSoakBench } from './soak.js';
import { runStartupBench } from './startup.js';
import { runWidgetLoadBench } from './widgetLoad.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
let dbs = (args.get('db') ?? 'sqlite,postgres').split(',') as Db[];
const only = args.get('only');

if (dbs.includes('postgres') && !(await pgReachable())) {
  process.stderr.write('\n*** PostgreSQL is not reachable (BENCH_DATABASE_URL): the PostgreSQL runs are skipped. ***\n\n');
  dbs = dbs.filter((d) => d !== 'postgres');
}

const benches: Record<string, () => Promise<void>> = {
  'chat-channel': () => runChatChannelBench(dbs),
  fanout: () => runFanoutBench(dbs),
  deliveries: () => runDeliveriesBench(dbs),
  sockets: () => runSocketsBench(dbs),
  startup: () => runStartupBench(dbs),
  bundle: () => runBundleBench(),
  reports: () => runReportsBench(dbs),
  search: () => runSearchBench(dbs),
  export: () => runExportBench(dbs),
  erasure: () => runErasureBench(),
  'widget-load': () => runWidgetLoadBench(),
  routing: () => runRoutingBench(dbs),
  backup: () => runBackupBench(),
  soak: () => runSoakBench(dbs),
};
/** Run only when named: ten minutes each. */
const LONG = new Set(['soak']);
if (only && !(only in benches)) throw new Error(`unknown benchmark ${only}; one of ${Object.keys(benches).join(', ')}`);

execSync(only === 'bundle' ? 'npm run build:web' : only && only !== 'widget-load' ? 'npm run build:server' : 'npm run build', { cwd: ROOT, stdio: 'inherit' });
// The build leaves megabytes of dirty pages; written back during the first benchmark, they stalled a
// SQLite checkpoint's fsync there (a frame p99 of 111 ms against 5–6 ms in the runs before and after).
execSync('sync');
for (const [name, run] of Object.entries(benches)) {
  if ((only && only !== name) || (!only && LONG.has(name))) continue;
  const started = performance.now();
  await run();
  process.stderr.write(`${name}: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
}
