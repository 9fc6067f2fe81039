/**
 * Background workers of one process, started with the app and stopped on close
 * (after the HTTP server has drained). Each returns its own stop function.
 */
import type { FastifyInstance } from 'fastify';
import { backupWorker } from './backup/scheduled.js';
import type { AppContext, Worker } from './context.js';
import { erasureWorker } from './domain/erasure/erasureWorker.js';
import { dailyRollupWorker } from './domain/reports/dailyRollupWorker.js';
import { routingWorker } from './domain/routing/routingWorker.js';
import { hoursWorker } from './domain/workingHours/hoursWorker.js';
import { relayWorker } from './events/relay.js';
import { missedChatWorker } from './mail/missedChats.js';
import { presenceWorker } from './realtime/presenceWorker.js';
import { uploadSweepWorker } from './retention/uploadSweeper.js';
import { retentionWorker } from './retention/worker.js';
import { startDeliverer } from './webhooks/deliverer.js';

/** The one list of workers: read it to know what runs in the background. Stopped in reverse order. */
const workers: Worker[] = [
  relayWorker,
  startDeliverer,
  presenceWorker,
  retentionWorker,
  uploadSweepWorker,
  missedChatWorker,
  dailyRollupWorker,
  hoursWorker,
  routingWorker,
  backupWorker,
  erasureWorker,
];

export async function startWorkers(app: FastifyInstance, ctx: AppContext, enabled: boolean): Promise<() => Promise<void>> {
  if (!enabled) return async () => undefined;
  const stops: Array<() => Promise<void>> = [];
  for (const start of workers) stops.push(await start(app, ctx));
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
