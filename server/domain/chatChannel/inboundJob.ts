/**
 * A chat-channel request as the batch writer (storeInboundBatch.ts) takes it,
 * what it answers, and what it reads of the request: the sender's details and
 * the message's idempotency key.
 */
import type { Channel } from '../../db/schema.js';
import type { UpsertVisitorInput, VisitorDetails } from '../visitors/upsertVisitor.js';
import { contentHash, type DedupKey } from './dedupInbound.js';
import type { InboundRequest } from './parseInbound.js';

export type InboundOutcome = 'stored' | 'duplicate' | 'typing' | 'typing_ignored' | 'suppressed';

export interface InboundJob {
  channel: Channel;
  req: InboundRequest;
  now: number;
}

/** The visitor details a request carries. */
export function senderDetails({ sender }: InboundRequest): VisitorDetails {
  return { name: sender.name, phone: sender.phone, email: sender.email, photo: sender.photo, url: sender.url, invite: sender.invite };
}

/** The idempotency key of a message that carries a message.id, else null. */
export function dedupKeyOf({ channel, req }: InboundJob): DedupKey | null {
  return req.kind === 'message' && req.message.external_id !== null
    ? {
        accountId: channel.account_id,
        channelId: channel.id,
        senderId: req.sender.id,
        messageId: req.message.external_id,
        contentHash: contentHash(req.message),
      }
    : null;
}

/** The page a chat-channel chat opens with: the sender's url when it is a web address. */
export function pageOf({ req }: InboundJob): { url: string } | null {
  const url = req.sender.url;
  return url && /^https?:/.test(url) ? { url } : null;
}

/** The visitor a job's sender is stored as: its channel, sender id and details, at the job's time. */
export function visitorInputOf({ channel, req, now }: InboundJob): UpsertVisitorInput {
  return {
    accountId: channel.account_id,
    channelId: channel.id,
    externalId: req.sender.id,
    externalIdIsNumber: req.sender.idIsNumber,
    details: senderDetails(req),
    now,
  };
}
