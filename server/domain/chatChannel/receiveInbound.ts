/**
 * A customer system POSTs a visitor message (or typing) to the chat channel.
 * The messages that arrive together are written in one transaction
 * (db/groupCommit.ts): the common ones together in a few statements
 * (storeInboundBatch.ts; a known visitor's messages to its open chat, and a
 * new sender's first messages: newSenders.ts), the others one after the other
 * (storeInbound.ts).
 * Each request is answered after its transaction commits.
 */
import type { AppContext } from '../../context.js';
import { GroupCommit } from '../../db/groupCommit.js';
import type { Channel } from '../../db/schema.js';
import { commit } from '../../events/outbox.js';
import type { InboundRequest } from './parseInbound.js';
import { storeInbound, type InboundJob, type InboundOutcome } from './storeInbound.js';
import { NewSenderConflict } from './newSenders.js';
import { storeInboundBatch } from './storeInboundBatch.js';

export type { InboundOutcome } from './storeInbound.js';

/** Batches longer than this wait for the next transaction (bounds how long a row lock is held). */
const MAX_BATCH = 64;

/** This process's chat-channel writer (AppContext.inbound): the one group commit every inbound request joins. */
export class InboundWriter {
  private readonly commits: GroupCommit<InboundJob, InboundOutcome>;

  constructor(ctx: Pick<AppContext, 'db' | 'signals' | 'metrics'>) {
    this.commits = new GroupCommit<InboundJob, InboundOutcome>({
      run: async (jobs) => {
        // A message alone takes the batch's path too: fewer statements than storeInbound's for a
        // known visitor (6 against 7) and far fewer for a new one (about 9 against 13, routed or
        // not); typing alone goes straight to storeInbound (the batch would hand it over anyway).
        const alone = (): Promise<InboundOutcome[]> => commit(ctx.db, ctx.signals, async (tx) => [await storeInbound(tx, jobs[0])]);
        if (jobs.length === 1 && jobs[0].req.kind !== 'message') return alone();
        try {
          return await commit(ctx.db, ctx.signals, (tx) => storeInboundBatch(tx, jobs));
        } catch (err) {
          // Its new sender's visitor was created meanwhile (another instance): written as alone, as a
          // failed batch's jobs are (db/groupCommit.ts writes those again one by one, but rejects one alone).
          if (jobs.length === 1 && err instanceof NewSenderConflict) return alone();
          throw err;
        }
      },
      maxBatch: MAX_BATCH,
      onBatch: (size, outcome) => ctx.metrics.groupCommit.observe({ writer: 'chat_channel', outcome }, size),
    });
  }

  /** Resolves with the job's outcome once the transaction holding it has committed. */
  submit(job: InboundJob): Promise<InboundOutcome> {
    return this.commits.submit(job);
  }
}

export function receiveInbound(ctx: AppContext, input: { channel: Channel; req: InboundRequest }): Promise<InboundOutcome> {
  return ctx.inbound.submit({ channel: input.channel, req: input.req, now: ctx.clock() });
}
