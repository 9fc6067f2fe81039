/**
 * The erasure worker (#33): works off the running `erasures` jobs, oldest
 * first, one bounded batch (eraseVisitor.ts) at a time with a turn of the
 * event loop between batches, so requests interleave and a visitor with
 * 10,000 messages never holds the store for long. Jobs live in the database:
 * a restart resumes them (the first look comes at start), and on several
 * instances a job's batches are exclusive (its row is taken FOR UPDATE SKIP
 * LOCKED). Woken at once by a new job (AppContext.erasureWake), else it looks every minute.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext, Worker } from '../../context.js';
import { eraseVisitorStep } from './eraseVisitor.js';

/** Rows of one kind per batch. */
export const ERASE_BATCH = 500;
const IDLE_LOOK_MS = 60_000;

export class ErasureWorker {
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly batch = ERASE_BATCH,
  ) {}

  start(): void {
    this.ctx.erasureWake.set(() => this.wake());
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.ctx.erasureWake.set(null);
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.running = this.drain()
      .catch((err: unknown) => this.ctx.log.warn({ err }, 'erasure batch failed; tried again later'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        } else this.schedule();
      });
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.wake(), IDLE_LOOK_MS);
    this.timer.unref();
  }

  /** Every running job to its end (a job another instance holds is left to it). */
  async drain(): Promise<void> {
    const jobs = await this.ctx.db.selectFrom('erasures').select('id').where('status', '=', 'running').orderBy('id').execute();
    for (const { id } of jobs) {
      while (!this.stopped) {
        const step = await eraseVisitorStep(this.ctx, id, this.batch);
        if (step !== 'more') {
          if (step === 'done') this.ctx.log.info({ erasure: id }, 'visitor erased');
          break;
        }
        await nextTurn();
      }
      if (this.stopped) return;
    }
  }
}

export const erasureWorker: Worker = async (_app, ctx) => {
  const worker = new ErasureWorker(ctx);
  worker.start();
  return () => worker.stop();
};
