/**
 * The confirmation link of "E-mail me this conversation" (transcriptMails.ts):
 * peekConfirmation() tells the page what the link is for (opening it changes
 * nothing, so a mail scanner fetching links sends nothing); confirmTranscript()
 * is the visitor pressing the page's button: the link is used up, its address
 * becomes the visitor's proved address (visitors.transcript_email, so later
 * requests send straight away) and the chat's transcript is mailed there, in
 * the language the widget asked in. A link that is unknown or used answers
 * link_invalid (404), an old one link_expired (410).
 */
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import type { TranscriptMailsTable } from '../../db/schema.js';
import type { Selectable } from 'kysely';
import { AppError } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { sha256 } from '../../lib/ids.js';
import { sendVisitorTranscript } from './transcriptMails.js';
import { shownAccountName } from '../accounts/accountName.js';

type Confirmation = Selectable<TranscriptMailsTable>;

export interface ConfirmationView {
  email: string;
  lang: string;
  accountName: string;
}

/** The usable confirmation of `token`; link_invalid / link_expired otherwise. */
async function usable(db: Executor, token: string, now: number): Promise<Confirmation> {
  const row =
    token.length > 0 && token.length <= 100
      ? await db.selectFrom('transcript_mails').selectAll().where('token_hash', '=', sha256(token)).where('kind', '=', 'confirmation').executeTakeFirst()
      : undefined;
  if (!row || row.used_at !== null) throw new AppError('link_invalid');
  if ((row.expires_at ?? 0) <= now) throw new AppError('link_expired');
  return row;
}

async function view(db: Executor, row: Confirmation): Promise<ConfirmationView> {
  const account = await db.selectFrom('accounts').select('name').where('id', '=', row.account_id).executeTakeFirst();
  return { email: row.email, lang: row.lang, accountName: shownAccountName(account?.name) };
}

export async function peekConfirmation(ctx: AppContext, token: string): Promise<ConfirmationView> {
  return view(ctx.db, await usable(ctx.db, token, ctx.clock()));
}

export async function confirmTranscript(ctx: AppContext, token: string): Promise<ConfirmationView> {
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    const row = await usable(tx, token, now);
    // Used once: of two presses at the same moment, one finds it already used.
    const used = await tx.updateTable('transcript_mails').set({ used_at: now }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new AppError('link_invalid');
    const visitor = await tx
      .updateTable('visitors')
      .set({ transcript_email: row.email, updated_at: now })
      .where('id', '=', row.visitor_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const chat = await tx.selectFrom('chats').select(['id', 'account_id']).where('id', '=', row.chat_id).executeTakeFirstOrThrow();
    await sendVisitorTranscript(ctx, tx, { visitor, chat, email: row.email, lang: row.lang }, now);
    return view(tx, row);
  });
}
