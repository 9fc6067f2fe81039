/**
 * Work a request starts only once its answer has gone out, so that how long
 * the answer takes cannot depend on that work (forgot-password: a known
 * address writes a link and a mail, an unknown one nothing; the answer must
 * not tell them apart). Each piece runs on its own, its failure logged; the
 * app waits for the pieces still running before it closes.
 */
import type { FastifyBaseLogger } from 'fastify';

export class AfterAnswer {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /**
   * Starts `work` on the next turn of the event loop (call it from an
   * onResponse hook: the answer is sent). Not at once: SQLite queries run on
   * this thread, and would delay what is left of delivering the answer.
   */
  run(what: string, work: () => Promise<void>): void {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((err: unknown) => this.log.error({ err }, `${what} failed after its answer was sent`))
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Resolves when every piece started so far has ended. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
