/**
 * The mails "E-mail me this conversation" causes (#31 item 2): the
 * confirmation link mailed to an address the visitor has not proved yet, and
 * the transcript itself. Each is a transcript_mails row (migration 045), so
 * the caps count in the store, whichever instance answered:
 * - one confirmation link per visitor and day (24 h);
 * - at most TRANSCRIPTS_PER_VISITOR_DAY transcripts per visitor and day;
 * - at most MAILS_PER_ACCOUNT_DAY of both kinds per account and day, so a
 *   flood of fresh visitors cannot turn the operator's domain into a mailer.
 * The confirmation token is random (32 bytes), stored as its sha256 only,
 * works once and expires after CONFIRMATION_TTL_MS.
 */
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { Chat, Visitor } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { randomToken, sha256 } from '../../lib/ids.js';
import { enqueueMail } from '../../mail/enqueueMail.js';
import { notificationScope } from '../../mail/recipients.js';
import { transcriptConfirmationMail, visitorTranscriptMail } from '../../mail/templates/transcript.js';
import { visitorTexts } from '../../mail/templates/visitorTexts.js';
import { loadTranscript } from '../../mail/transcript.js';
import { readOwnContact } from '../../model/ownContact.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const CONFIRMATION_TTL_MS = DAY_MS;
export const TRANSCRIPTS_PER_VISITOR_DAY = 10;
export const MAILS_PER_ACCOUNT_DAY = 500;

/** The path of a confirmation link (routes/widget/transcriptConfirm.ts), under PUBLIC_URL. */
export const confirmationPath = (token: string): string => `/widget/transcript/${token}`;

const count = async (tx: Tx, column: 'visitor_id' | 'account_id', id: number, since: number, kind?: 'confirmation' | 'transcript'): Promise<number> => {
  let q = tx
    .selectFrom('transcript_mails')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(column, '=', id)
    .where('created_at', '>', since);
  if (kind) q = q.where('kind', '=', kind);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
};

/** What a visitor asks for: the chat's transcript (or first the link that proves the address) mailed to `email`, in `lang`. */
export interface TranscriptMailInput {
  visitor: Visitor;
  chat: Pick<Chat, 'id' | 'account_id'>;
  email: string;
  lang: string;
}

/** The transcript_mails row that counts a mail against the caps; a confirmation's with its token (as sha256) and expiry. */
async function recordMail(tx: Tx, input: TranscriptMailInput, kind: 'confirmation' | 'transcript', token: string | null, now: number): Promise<void> {
  await tx
    .insertInto('transcript_mails')
    .values({
      account_id: input.chat.account_id,
      visitor_id: input.visitor.id,
      chat_id: input.chat.id,
      kind,
      email: input.email,
      lang: input.lang,
      token_hash: token === null ? null : sha256(token),
      expires_at: token === null ? null : now + CONFIRMATION_TTL_MS,
      used_at: null,
      created_at: now,
    })
    .execute();
}

/** 429 once the account has sent its day's share of visitor-requested mails. */
async function assertAccountCap(tx: Tx, accountId: number, now: number): Promise<void> {
  if ((await count(tx, 'account_id', accountId, now - DAY_MS)) >= MAILS_PER_ACCOUNT_DAY) {
    throw new AppError('too_many_requests', 'Conversations cannot be sent by e-mail right now; please try again tomorrow.', { 'retry-after': '3600' });
  }
}

/** Queues the transcript of `chat` to `email` (the visitor's proved address), counting it against the caps. */
export async function sendVisitorTranscript(ctx: AppContext, tx: Tx, input: TranscriptMailInput, now: number): Promise<void> {
  const { visitor, chat, email, lang } = input;
  if ((await count(tx, 'visitor_id', visitor.id, now - DAY_MS, 'transcript')) >= TRANSCRIPTS_PER_VISITOR_DAY) {
    throw new AppError('too_many_requests', `You have been sent ${TRANSCRIPTS_PER_VISITOR_DAY} conversations today; please try again tomorrow.`, {
      'retry-after': '3600',
    });
  }
  await assertAccountCap(tx, chat.account_id, now);
  const scope = await notificationScope(tx, ctx.config, chat.account_id);
  const transcript = await loadTranscript(tx, {
    accountId: chat.account_id,
    chatId: chat.id,
    timezone: scope.timezone,
    withNotes: false,
    visitorName: readOwnContact(visitor).name ?? visitorTexts(lang).you,
    lang,
  });
  if (!transcript) throw new AppError('conflict', 'There is no conversation to send yet: write a message first.');
  const content = visitorTranscriptMail(scope, transcript, lang);
  await enqueueMail(tx, ctx.config, { accountId: chat.account_id, type: 'chat_transcript', to: email, chatId: chat.id, ...content }, now);
  await recordMail(tx, input, 'transcript', null, now);
}

/**
 * Mails a confirmation link to `email`, unless one went to the visitor in the
 * last 24 h: to the same address and unused, it is still the one to open
 * (nothing new is sent); else 429.
 */
export async function sendConfirmation(ctx: AppContext, tx: Tx, input: TranscriptMailInput, now: number): Promise<void> {
  const { visitor, chat, email, lang } = input;
  const recent = await tx
    .selectFrom('transcript_mails')
    .select(['email', 'used_at', 'expires_at'])
    .where('visitor_id', '=', visitor.id)
    .where('kind', '=', 'confirmation')
    .where('created_at', '>', now - DAY_MS)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (recent) {
    if (recent.email === email && recent.used_at === null && (recent.expires_at ?? 0) > now) return;
    throw new AppError('too_many_requests', `A confirmation link was already mailed to ${recent.email} today; open it, or ask again tomorrow.`, {
      'retry-after': '3600',
    });
  }
  await assertAccountCap(tx, chat.account_id, now);
  const token = randomToken();
  await recordMail(tx, input, 'confirmation', token, now);
  const scope = await notificationScope(tx, ctx.config, chat.account_id);
  const content = transcriptConfirmationMail(scope, `${ctx.config.publicUrl}${confirmationPath(token)}`, lang);
  await enqueueMail(tx, ctx.config, { accountId: chat.account_id, type: 'transcript_confirmation', to: email, chatId: chat.id, ...content }, now);
}
