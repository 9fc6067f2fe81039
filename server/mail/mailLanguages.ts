/**
 * Which language a mail to an address is written in (docs/I18N.md "Mails and
 * notifications"): an agent's address gets that agent's language (the one
 * chosen in Profile → Language; English while none is chosen); an address
 * that is no agent's (a notification or archive address of Admin →
 * Settings, often a shared mailbox) gets the language every active admin
 * chose, when they all chose the same one, else English: a team that works
 * in one language reads its shared mail in it, a mixed team in English.
 */
import type { AgentLanguage } from '../../protocol/agent.js';
import type { Executor } from '../db/database.js';
import { activeAdmins } from './recipients.js';
import { textLanguage } from './templates/agentTexts/index.js';

/** The language every active admin of the account chose; English when one has chosen none or they differ. */
export async function sharedLanguage(db: Executor, accountId: number): Promise<AgentLanguage> {
  const admins = await activeAdmins(db, accountId).select('language').execute();
  const chosen = new Set(admins.map((a) => (a.language === null ? null : textLanguage(a.language))));
  const [only] = [...chosen];
  return chosen.size === 1 && only ? only : 'en';
}

/** Each of `addresses` with the language its mail is written in. */
export async function languagesOf(db: Executor, accountId: number, addresses: string[]): Promise<Map<string, AgentLanguage>> {
  const out = new Map<string, AgentLanguage>();
  if (addresses.length === 0) return out;
  const lower = [...new Set(addresses.map((a) => a.toLowerCase()))];
  const agents = await db.selectFrom('agents').select(['email', 'language']).where('account_id', '=', accountId).where('email', 'in', lower).execute();
  const byEmail = new Map(agents.map((a) => [a.email.toLowerCase(), textLanguage(a.language)]));
  let shared: AgentLanguage | undefined;
  for (const address of addresses) {
    const own = byEmail.get(address.toLowerCase());
    if (own) out.set(address, own);
    else out.set(address, (shared ??= await sharedLanguage(db, accountId)));
  }
  return out;
}
