/**
 * Login tokens: random bearer strings whose sha256 is stored, so any instance
 * can resolve them and logout revokes them everywhere.
 */
import type { Db } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { randomToken, sha256 } from '../../lib/ids.js';

export async function issueToken(db: Db, agent: Pick<Agent, 'id' | 'account_id'>, now: number, ttlSeconds: number): Promise<string> {
  const token = randomToken(32);
  await db
    .insertInto('auth_tokens')
    .values({
      account_id: agent.account_id,
      agent_id: agent.id,
      token_hash: sha256(token),
      created_at: now,
      expires_at: now + ttlSeconds * 1000,
      revoked_at: null,
    })
    .execute();
  return token;
}

/** The active agent a token belongs to, or null when unknown, expired, revoked or deactivated. */
export async function resolveToken(db: Db, token: string, now: number): Promise<Agent | null> {
  if (!token || token.length > 200) return null;
  const row = await db
    .selectFrom('auth_tokens')
    .innerJoin('agents', 'agents.id', 'auth_tokens.agent_id')
    .selectAll('agents')
    .where('auth_tokens.token_hash', '=', sha256(token))
    .where('auth_tokens.revoked_at', 'is', null)
    .where('auth_tokens.expires_at', '>', now)
    .where('agents.active', '=', 1)
    .executeTakeFirst();
  return row ?? null;
}

/** A revoked token also expires at that moment, so the retention worker deletes it with the expired ones (server/retention/pruneAuth.ts). */
export async function revokeToken(db: Db, token: string, now: number): Promise<void> {
  await db
    .updateTable('auth_tokens')
    .set({ revoked_at: now, expires_at: now })
    .where('token_hash', '=', sha256(token))
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeAgentTokens(db: Db, agentId: number, now: number): Promise<void> {
  await db.updateTable('auth_tokens').set({ revoked_at: now, expires_at: now }).where('agent_id', '=', agentId).where('revoked_at', 'is', null).execute();
}
