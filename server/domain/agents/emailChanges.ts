/**
 * An agent's e-mail address (its sign-in name, where its password links and
 * notification mails go) changes in three ways (#36 item 1):
 * - an administrator sets it (PATCH /agents/:id `email`: updateAgent.ts), at once;
 * - the agent sets its own (POST /me/email): while mail is sent (SMTP_URL set)
 *   a link goes to the new address and the address changes only when that link
 *   is opened (POST /auth/email-confirmation), within 24 hours, once; while
 *   mail is only kept, no link could reach anyone, so it changes at once;
 * - the first sign-in with the generated password (firstRun.ts), at once.
 * The link's token is made as its mail is sent (mail/passwordLinkMail.ts), only
 * its sha256 is stored (email_changes.token_hash, looked up by that digest), so
 * neither the Mail page nor the database holds a working link. Addresses are
 * unique across the service: a taken one is 409 email_taken, also when it was
 * taken between the request and the opening of the link.
 */
import type { AppContext } from '../../context.js';
import type { Executor, Tx } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { randomToken, sha256 } from '../../lib/ids.js';
import { enqueueMail } from '../../mail/enqueueMail.js';
import { mailTime } from '../../mail/recipients.js';
import { emailChangeMail } from '../../mail/templates/accounts.js';
import { textLanguage } from '../../mail/templates/agentTexts/index.js';
import { presentAgent } from '../../presenters/agent.js';
import { accountNameOf } from '../accounts/accountName.js';
import { endPasswordLinks, LINK_SLOT } from '../auth/passwordLinks.js';
import { cleanEmail, isUniqueViolation } from './agentInput.js';
// The link itself is made as its mail is sent, below the mail (emailChangeLinks.ts).
export { emailChangeUrl, issueEmailChangeToken } from './emailChangeLinks.js';

export const EMAIL_CHANGE_TTL_MS = 24 * 3600 * 1000;

async function assertEmailFree(db: Executor, email: string, agentId: number): Promise<void> {
  const other = await db.selectFrom('agents').select('id').where('email', '=', email).where('id', '!=', agentId).executeTakeFirst();
  if (other) throw new AppError('email_taken', `Another agent already signs in as ${email}; choose another address.`);
}

/**
 * Sets the agent's address in the caller's transaction: its waiting own
 * changes end, and so do its unused password links (an invitation mailed to
 * a wrong address must not stay usable by whoever reads that mailbox).
 * Records agent.updated. The caller checked that the address is free; a race
 * is the unique index's 409 (withEmailTaken).
 */
export async function setAgentEmail(tx: Tx, agent: Agent, email: string, now: number): Promise<Agent> {
  const updated = await tx.updateTable('agents').set({ email, updated_at: now }).where('id', '=', agent.id).returningAll().executeTakeFirstOrThrow();
  await tx.updateTable('email_changes').set({ used_at: now }).where('agent_id', '=', agent.id).where('used_at', 'is', null).execute();
  await endPasswordLinks(tx, agent.id, now);
  return updated;
}

/** Runs `work`, answering 409 email_taken for the unique index's refusal (two requests raced past the check). */
export async function withEmailTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('email_taken');
    throw err;
  }
}

/** The checked new address of an agent: cleaned, free (or its own). */
export async function checkNewEmail(db: Executor, agentId: number, value: string): Promise<string> {
  const email = cleanEmail(value);
  await assertEmailFree(db, email, agentId);
  return email;
}

export type OwnEmailChange = { changed: true; agent: Agent } | { changed: false; pending_email: string; sent_to: string; expires_at: number };

/** POST /me/email: the agent's own new address, confirmed by a link while mail is sent, at once while it is kept. */
export async function requestOwnEmailChange(ctx: AppContext, input: { agent: Agent; email: string }): Promise<OwnEmailChange> {
  const { agent } = input;
  const email = await checkNewEmail(ctx.db, agent.id, input.email);
  const now = ctx.clock();
  if (email === agent.email) return { changed: true, agent };
  if (ctx.config.smtpUrl === null) {
    const updated = await withEmailTaken(() =>
      commit(ctx.db, ctx.signals, async (tx) => {
        const current = await tx.selectFrom('agents').selectAll().where('id', '=', agent.id).executeTakeFirstOrThrow();
        const changed = await setAgentEmail(tx, current, email, now);
        await recordEvent(tx, { accountId: agent.account_id, type: 'agent.updated', data: { agent: presentAgent(changed) } }, now);
        return changed;
      }),
    );
    return { changed: true, agent: updated };
  }
  const expiresAt = now + EMAIL_CHANGE_TTL_MS;
  await commit(ctx.db, ctx.signals, async (tx) => {
    // One waiting change at a time: a newer request ends the earlier ones.
    await tx.updateTable('email_changes').set({ used_at: now }).where('agent_id', '=', agent.id).where('used_at', 'is', null).execute();
    const row = await tx
      .insertInto('email_changes')
      .values({
        account_id: agent.account_id,
        agent_id: agent.id,
        new_email: email,
        // Opens nothing: the real token is made when the mail is sent (issueEmailChangeToken).
        token_hash: sha256(randomToken(32)),
        created_at: now,
        expires_at: expiresAt,
        used_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // In the agent's own language (docs/I18N.md "Mails and notifications").
    const lang = textLanguage(agent.language);
    const content = emailChangeMail(
      { accountName: await accountNameOf(tx, agent.account_id), agent, newEmail: email, url: LINK_SLOT, expiresAt: mailTime(expiresAt, 'UTC', lang) },
      lang,
    );
    await enqueueMail(tx, ctx.config, { accountId: agent.account_id, type: 'email_change', to: email, ...content, emailChangeId: row.id }, now);
  });
  return { changed: false, pending_email: email, sent_to: email, expires_at: expiresAt };
}

/** Opening the link: the address changes now; link_invalid (404) when unknown or used, link_expired (410) past its 24 hours. */
export async function confirmEmailChange(ctx: AppContext, input: { token: unknown }): Promise<Agent> {
  const { token } = input;
  if (typeof token !== 'string' || token.length < 20 || token.length > 200) throw new AppError('link_invalid');
  const now = ctx.clock();
  return withEmailTaken(() =>
    commit(ctx.db, ctx.signals, async (tx) => {
      const change = await tx.selectFrom('email_changes').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
      if (!change || change.used_at !== null) throw new AppError('link_invalid');
      if (change.expires_at <= now) throw new AppError('link_expired');
      const agent = await tx.selectFrom('agents').selectAll().where('id', '=', change.agent_id).executeTakeFirst();
      if (!agent || agent.active !== 1) throw new AppError('link_invalid');
      await assertEmailFree(tx, change.new_email, agent.id);
      const done = await tx.updateTable('email_changes').set({ used_at: now }).where('id', '=', change.id).where('used_at', 'is', null).executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw new AppError('link_invalid');
      const changed = await setAgentEmail(tx, agent, change.new_email, now);
      await recordEvent(tx, { accountId: agent.account_id, type: 'agent.updated', data: { agent: presentAgent(changed) } }, now);
      return changed;
    }),
  );
}

/** The address an agent's own change waits for, if any (GET /me/email). */
export async function pendingEmailChange(db: Executor, agentId: number, now: number): Promise<{ pending_email: string; expires_at: number } | null> {
  const row = await db
    .selectFrom('email_changes')
    .select(['new_email', 'expires_at'])
    .where('agent_id', '=', agentId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? { pending_email: row.new_email, expires_at: row.expires_at } : null;
}
