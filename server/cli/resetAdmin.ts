/**
 * `npm run reset-admin -- <email>`: the way back in for a locked-out
 * administrator, run on the server with the same environment as the service
 * (DATABASE_URL, DATA_DIR, PUBLIC_URL). The person with that e-mail must be
 * an administrator; it is made active again if it was deactivated, and a
 * one-hour password link is printed (nothing is mailed: the mail may be what
 * is broken). Earlier unused links of that person stop working.
 * Exit codes: 0 link printed, 2 bad usage or configuration, 1 refused.
 */
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { inTransaction, openStore } from '../db/database.js';
import { createPasswordLink, linkUrl } from '../domain/auth/passwordLinks.js';
import { cleanEmail } from '../domain/agents/agentInput.js';
import { AppError } from '../errors/AppError.js';

export class ResetRefused extends Error {}

export async function resetAdmin(config: Config, rawEmail: string, now = Date.now()): Promise<{ url: string; expiresAt: number; reactivated: boolean }> {
  let email: string;
  try {
    email = cleanEmail(rawEmail);
  } catch (err) {
    throw new ResetRefused(err instanceof AppError ? err.message : String(err));
  }
  const store = await openStore(config);
  try {
    return await inTransaction(store.db, async (tx) => {
      const agent = await tx.selectFrom('agents').selectAll().where('email', '=', email).executeTakeFirst();
      if (!agent) throw new ResetRefused(`No one signs in with ${email}. Check the address (GET /api/v1/agents lists them).`);
      if (agent.role !== 'admin') throw new ResetRefused(`${email} is not an administrator; an administrator can send it a reset link from the Agents page.`);
      const reactivated = agent.active !== 1;
      if (reactivated) await tx.updateTable('agents').set({ active: 1, updated_at: now }).where('id', '=', agent.id).execute();
      const link = await createPasswordLink(tx, agent, 'reset', now);
      return { url: linkUrl(config.publicUrl, link.token), expiresAt: link.expiresAt, reactivated };
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
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  try {
    const done = await resetAdmin(config, email);
    process.stdout.write(
      `${done.reactivated ? 'The administrator was deactivated; it is active again.\n' : ''}` +
        `Open this link within the hour to set a new password (it works once):\n  ${done.url}\n`,
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
