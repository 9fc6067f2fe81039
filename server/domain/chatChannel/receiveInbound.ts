/**
 * A customer system POSTs a visitor message (or typing) to the chat channel.
 * The requests that arrive together are written in one transaction
 * (db/groupCommit.ts) by the chat channel's one writer, storeInboundBatch.ts
 * (a request alone is a batch of one). Each request is answered after its
 * transaction commits.
 */
import type { AppContext } from '../../context.js';
import { GroupCommit } from '../../db/groupCommit.js';
import type { Channel } from '../../db/schema.js';
import { commit } from '../../events/outbox.js';
import type { InboundJob, InboundOutcome } from './inboundJob.js';
import type { InboundRequest } from './parseInbound.js';
import { NewSenderConflict } from './newSenders.js';
import { storeInboundBatch } from './storeInboundBatch.js';

export type { InboundOutcome } from './inboundJob.js';

/** Batches longer than this wait for the next transaction (bounds how long a row lock is held). */
const MAX_BATCH = 64;

/** This process's chat-channel writer (AppContext.inbound): the one group commit every inbound request joins. */
export class InboundWriter {
  private readonly commits: GroupCommit<InboundJob, InboundOutcome>;

  constructor(ctx: Pick<AppContext, 'db' | 'signals' | 'metrics'>) {
    const write = (jobs: InboundJob[]) => commit(ctx.db, ctx.signals, (tx) => storeInboundBatch(tx, jobs));
    this.commits = new GroupCommit<InboundJob, InboundOutcome>({
      run: async (jobs) => {
        try {
          return await write(jobs);
        } catch (err) {
          // A new sender's visitor was created meanwhile by another transaction (another
          // instance): written again, the touch now finds it. A failed batch of several is
          // written again job by job (db/groupCommit.ts), each then here.
          if (jobs.length === 1 && err instanceof NewSenderConflict) return write(jobs);
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
