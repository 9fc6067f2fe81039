/**
 * An e-mail confirmation's link (emailChanges.ts), made as its mail is sent
 * (mail/passwordLinkMail.ts): the token issued now, only its sha256 kept.
 * Apart from emailChanges.ts, which enqueues the mail, so that sending it
 * does not import the enqueuing back (no circle through mail/ and webhooks/).
 */
import type { Executor } from '../../db/database.js';
import { randomToken, sha256 } from '../../lib/ids.js';

/** The page of the agent app that opens a confirmation link (web/agent: ConfirmEmailPage). */
export const emailChangeUrl = (publicUrl: string, token: string): string => `${publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;

/** The token of a confirmation link, made as its mail is sent (only its sha256 is kept); null when the change ended or expired. */
export async function issueEmailChangeToken(db: Executor, id: number, now: number): Promise<string | null> {
  const token = randomToken(32);
  const done = await db
    .updateTable('email_changes')
    .set({ token_hash: sha256(token) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1 ? token : null;
}
