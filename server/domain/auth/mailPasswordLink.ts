/**
 * Writes a password link and the mail that carries it, in the caller's
 * transaction: the invitation (72 h) or the password reset (1 h), to the
 * agent's own address, in the agent's language, or, for an invitation to
 * someone who has chosen none yet, the inviting admin's (docs/I18N.md). The mail is a `mail` delivery (server/mail/): sent by
 * the deliverer, or kept for the admins' Mail page when no SMTP_URL is set.
 * The stored mail holds LINK_SLOT, not the link: the deliverer makes the
 * link's token as it sends it (mail/passwordLinkMail.ts), so a kept mail, and
 * the Mail page, never show a link that works.
 */
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { enqueueMail } from '../../mail/enqueueMail.js';
import { mailTime } from '../../mail/recipients.js';
import { invitationMail, passwordResetMail } from '../../mail/templates/accounts.js';
import { textLanguage } from '../../mail/templates/agentTexts/index.js';
import { createPasswordLink, LINK_SLOT, type LinkKind, type Replaces } from './passwordLinks.js';
import { shownAccountName } from '../accounts/accountName.js';

export async function mailPasswordLink(
  tx: Tx,
  ctx: Pick<AppContext, 'config'>,
  input: {
    agent: Pick<Agent, 'id' | 'account_id' | 'name' | 'email' | 'password_hash' | 'language'>;
    kind: LinkKind;
    by: string | null;
    /** The inviting admin's language: an invitation's, while the agent has chosen none. */
    byLanguage?: string | null;
    now: number;
    /** The earlier links it ends (passwordLinks.ts): 'resets' when the person asked, 'all' when an administrator sends it. */
    replaces: Replaces;
  },
): Promise<{ expiresAt: number }> {
  const { agent, kind, now } = input;
  const { id, expiresAt } = await createPasswordLink(tx, agent, kind, now, input.replaces);
  const account = await tx.selectFrom('accounts').select('name').where('id', '=', agent.account_id).executeTakeFirst();
  const accountName = shownAccountName(account?.name);
  // The stored mail has the slot, never a link (issueLinkToken fills it as it is sent).
  const url = LINK_SLOT;
  const lang = textLanguage(agent.language ?? (kind === 'invite' ? input.byLanguage : null));
  const expires = mailTime(expiresAt, 'UTC', lang);
  const content =
    kind === 'invite'
      ? invitationMail({ accountName, agent, invitedBy: input.by, url, expiresAt: expires }, lang)
      : passwordResetMail({ accountName, agent, forcedBy: input.by, url, expiresAt: expires }, lang);
  await enqueueMail(
    tx,
    ctx.config,
    { accountId: agent.account_id, type: kind === 'invite' ? 'invitation' : 'password_reset', to: agent.email, ...content, passwordLinkId: id },
    now,
  );
  return { expiresAt };
}
