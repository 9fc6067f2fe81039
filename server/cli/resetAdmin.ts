/**
 * `npm run reset-admin -- <email>`: the way back in for a locked-out
 * administrator, run on the server with the same environment as the service
 * (DATABASE_URL or DATA_DIR). The person with that e-mail must be an
 * administrator; it is made active again if it was deactivated, and a new
 * one-time password is set and printed (nothing is mailed: the mail may be
 * what is broken). In the same transaction every session of that person
 * ends, its unused password links stop working, and an `agent.updated`
 * event makes its open streams close.
 *
 * The one-time password (agents.password_state `one_time`, migration 026)
 * signs in once; that session must choose a new password (PUT
 * /api/v1/me/password; the agent app shows the form at once) before any other
 * call, which answers 403 `password_change_required` until then
 * (routes/authenticate.ts, domain/auth/login.ts).
 * Exit codes: 0 password printed, 2 bad usage or configuration, 1 refused.
 */
import { pathToFileURL } from 'node:url';
import type { Config } from '../config/config.js';
import { cliConfig } from './cliConfig.js';
import { inTransaction, openStore } from '../db/database.js';
import { hashPassword } from '../domain/auth/passwords.js';
import { revokeAgentTokens } from '../domain/auth/tokens.js';
import { cleanEmail } from '../domain/agents/agentInput.js';
import { AppError } from '../errors/AppError.js';
import { recordEvent } from '../events/outbox.js';
import { randomToken } from '../lib/ids.js';
import { presentAgent } from '../presenters/agent.js';

export class ResetRefused extends Error {}

export interface ResetDone {
  email: string;
  /** The new one-time password: shown once, stored only as its hash. */
  password: string;
  reactivated: boolean;
}

/** 15 random bytes: 20 URL-safe characters, 120 bits. */
const newOneTimePassword = (): string => randomToken(15);

export async function resetAdmin(config: Config, rawEmail: string, now = Date.now()): Promise<ResetDone> {
  let email: string;
  try {
    email = cleanEmail(rawEmail);
  } catch (err) {
    throw new ResetRefused(err instanceof AppError ? err.message : String(err));
  }
  const password = newOneTimePassword();
  const hash = await hashPassword(password);
  const store = await openStore(config);
  try {
    return await inTransaction(store.db, async (tx) => {
      const agent = await tx.selectFrom('agents').selectAll().where('email', '=', email).executeTakeFirst();
      if (!agent) throw new ResetRefused(`No one signs in with ${email}. Check the address (GET /api/v1/agents lists them).`);
      if (agent.role !== 'admin') throw new ResetRefused(`${email} is not an administrator; an administrator can send it a reset link from the Agents page.`);
      const reactivated = agent.active !== 1;
      const updated = await tx
        .updateTable('agents')
        .set({ password_hash: hash, password_state: 'one_time', active: 1, updated_at: now })
        .where('id', '=', agent.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await revokeAgentTokens(tx, agent.id, now);
      await tx.updateTable('password_links').set({ used_at: now }).where('agent_id', '=', agent.id).where('used_at', 'is', null).execute();
      await recordEvent(tx, { accountId: updated.account_id, type: 'agent.updated', data: { agent: presentAgent(updated) } }, now);
      return { email, password, reactivated };
    });
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const email = process.argv[2];
  if (!email || process.argv.length > 3) {
    process.stderr.write('Usage: npm run reset-admin -- <administrator e-mail>\n');
    process.exit(2);
  }
  const config = cliConfig();
  try {
    const done = await resetAdmin(config, email);
    process.stdout.write(
      `${done.reactivated ? 'The administrator was deactivated; it is active again.\n' : ''}` +
        `One-time password for ${done.email} (it signs in once; you will be asked to choose your own right after):\n` +
        `  ${done.password}\n` +
        'Every session of this administrator has ended, and its unused password links no longer work.\n',
    );
  } catch (err) {
    if (err instanceof ResetRefused) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
