/**
 * Single-use links that let a person set their own password: `invite` (an
 * admin invited them; 72 h) and `reset` (forgot password, or an admin forced
 * a reset; 1 h). The token exists only in the mail that goes out: it is made
 * when the mail is sent (issueLinkToken, called by the mail deliverer), only
 * its sha256 is stored, and the stored mail holds LINK_SLOT where the link
 * goes, so no admin reading the Mail page, nor anyone reading the database,
 * sees a working link (#31 item 13). Until then the row's token_hash is the
 * digest of a token nobody knows. Using a link marks it used in the same transaction that sets the
 * password, so a link works once even when two requests race (the UPDATE …
 * WHERE used_at IS NULL decides).
 *
 * A link is bound to the password it was issued against (`password_sha`, the
 * sha256 of the agent's password_hash then; migration 046): once the password
 * changes in any way, every earlier link is dead (link_invalid). Besides,
 * endPasswordLinks ends them outright where the password stays (sign out
 * everywhere, deactivation, reactivation). A new link replaces the earlier
 * unused ones: all of them when an administrator sends it (invitation, forced
 * reset), only earlier reset links when the person asks (forgot password),
 * so a stranger's reset request cannot cancel an invitation.
 */
import type { Executor, Tx } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { randomToken, safeEqual, sha256 } from '../../lib/ids.js';

export type LinkKind = 'invite' | 'reset';

const HOUR = 3600 * 1000;
export const LINK_TTL_MS: Record<LinkKind, number> = { invite: 72 * HOUR, reset: HOUR };

/** The path of the agent app's page that reads a link (web/agent: SetPassword). */
export const linkUrl = (publicUrl: string, token: string): string => `${publicUrl}/set-password?token=${encodeURIComponent(token)}`;

/** Which earlier unused links a new one ends: all of the agent's, or only its reset links. */
export type Replaces = 'all' | 'resets';

/** The digest a link is bound to: that of the agent's current password hash. */
export const passwordDigest = (passwordHash: string): string => sha256(passwordHash);

export async function createPasswordLink(
  tx: Tx,
  agent: Pick<Agent, 'id' | 'account_id' | 'password_hash'>,
  kind: LinkKind,
  now: number,
  replaces: Replaces,
): Promise<{ id: number; expiresAt: number }> {
  await tx
    .updateTable('password_links')
    .set({ used_at: now })
    .where('agent_id', '=', agent.id)
    .where('used_at', 'is', null)
    .$if(replaces === 'resets', (q) => q.where('kind', '=', 'reset'))
    .execute();
  const expiresAt = now + LINK_TTL_MS[kind];
  const row = await tx
    .insertInto('password_links')
    .values({
      account_id: agent.account_id,
      agent_id: agent.id,
      kind,
      // Opens nothing: the real token is made when the mail is sent (issueLinkToken).
      token_hash: sha256(randomToken(32)),
      created_at: now,
      expires_at: expiresAt,
      used_at: null,
      password_sha: passwordDigest(agent.password_hash),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, expiresAt };
}

/** Where the link goes in a stored password mail: the deliverer puts the real link there as it sends, and nothing else ever does. */
export const LINK_SLOT = '[the link is made as the mail is sent, for the recipient only; it is not stored]';

/**
 * The token of a link, made as its mail is sent: a fresh random one whose
 * sha256 replaces the row's, so a mail sent again (a retry, a redelivery)
 * carries a new link and the earlier copy's stops working. Null when the link
 * is used, replaced or expired by then: the mail must not go out.
 */
export async function issueLinkToken(db: Executor, linkId: number, now: number): Promise<string | null> {
  const token = randomToken(32);
  const done = await db
    .updateTable('password_links')
    .set({ token_hash: sha256(token) })
    .where('id', '=', linkId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1 ? token : null;
}

/** Ends every unused link of the agent (its password, sessions or standing changed). */
export async function endPasswordLinks(db: Executor, agentId: number, now: number): Promise<void> {
  await db.updateTable('password_links').set({ used_at: now }).where('agent_id', '=', agentId).where('used_at', 'is', null).execute();
}

export interface OpenLink {
  id: number;
  kind: LinkKind;
  expires_at: number;
  agent: Agent;
}

/** The unused, unexpired link of an active agent, bound to its current password: link_invalid (404) or link_expired (410) otherwise. */
export async function openPasswordLink(db: Executor, token: unknown, now: number): Promise<OpenLink> {
  if (typeof token !== 'string' || token.length < 20 || token.length > 200) throw new AppError('link_invalid');
  const row = await db
    .selectFrom('password_links')
    .innerJoin('agents', 'agents.id', 'password_links.agent_id')
    .selectAll('agents')
    .select([
      'password_links.id as link_id',
      'password_links.kind as link_kind',
      'password_links.expires_at as link_expires_at',
      'password_links.used_at as link_used_at',
      'password_links.password_sha as link_password_sha',
    ])
    .where('password_links.token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!row || row.link_used_at !== null || row.active !== 1) throw new AppError('link_invalid');
  // Issued against another password than the agent has now: dead, however young.
  if (row.link_password_sha === null || !safeEqual(row.link_password_sha, passwordDigest(row.password_hash))) throw new AppError('link_invalid');
  if (row.link_expires_at <= now) throw new AppError('link_expired');
  const { link_id, link_kind, link_expires_at, link_used_at: _used, link_password_sha: _sha, ...agent } = row;
  return { id: link_id, kind: link_kind, expires_at: link_expires_at, agent };
}

/** Marks the link used; false when another request used it first. */
export async function consumePasswordLink(tx: Tx, linkId: number, now: number): Promise<boolean> {
  const done = await tx.updateTable('password_links').set({ used_at: now }).where('id', '=', linkId).where('used_at', 'is', null).executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}
