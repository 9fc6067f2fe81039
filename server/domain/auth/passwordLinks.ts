/**
 * Single-use links that let a person set their own password: `invite` (an
 * admin invited them; 72 h) and `reset` (forgot password, or an admin forced
 * a reset; 1 h). The token goes out once, in the mail; only its sha256 is
 * stored. A new link of an agent replaces its earlier unused ones (they
 * become `link_invalid`), and using a link marks it used in the same
 * transaction that sets the password, so a link works once even when two
 * requests race (the UPDATE … WHERE used_at IS NULL decides).
 */
import type { Executor, Tx } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { randomToken, sha256 } from '../../lib/ids.js';

export type LinkKind = 'invite' | 'reset';

const HOUR = 3600 * 1000;
export const LINK_TTL_MS: Record<LinkKind, number> = { invite: 72 * HOUR, reset: HOUR };

/** The path of the agent app's page that reads a link (web/agent: SetPassword). */
export const linkUrl = (publicUrl: string, token: string): string => `${publicUrl}/set-password?token=${encodeURIComponent(token)}`;

export async function createPasswordLink(
  tx: Tx,
  agent: Pick<Agent, 'id' | 'account_id'>,
  kind: LinkKind,
  now: number,
): Promise<{ token: string; expiresAt: number }> {
  await tx.updateTable('password_links').set({ used_at: now }).where('agent_id', '=', agent.id).where('used_at', 'is', null).execute();
  const token = randomToken(32);
  const expiresAt = now + LINK_TTL_MS[kind];
  await tx
    .insertInto('password_links')
    .values({ account_id: agent.account_id, agent_id: agent.id, kind, token_hash: sha256(token), created_at: now, expires_at: expiresAt, used_at: null })
    .execute();
  return { token, expiresAt };
}

export interface OpenLink {
  id: number;
  kind: LinkKind;
  expires_at: number;
  agent: Agent;
}

/** The unused, unexpired link of an active agent: link_invalid (404) or link_expired (410) otherwise. */
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
    ])
    .where('password_links.token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!row || row.link_used_at !== null || row.active !== 1) throw new AppError('link_invalid');
  if (row.link_expires_at <= now) throw new AppError('link_expired');
  const { link_id, link_kind, link_expires_at, link_used_at: _used, ...agent } = row;
  return { id: link_id, kind: link_kind, expires_at: link_expires_at, agent };
}

/** Marks the link used; false when another request used it first. */
export async function consumePasswordLink(tx: Tx, linkId: number, now: number): Promise<boolean> {
  const done = await tx.updateTable('password_links').set({ used_at: now }).where('id', '=', linkId).where('used_at', 'is', null).executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}
