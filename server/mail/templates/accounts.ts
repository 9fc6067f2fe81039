/**
 * The mails of the account lifecycle, sent to one person: the invitation
 * (an admin added them; set a password within 72 hours) and the password
 * reset (asked for on the sign-in page, or forced by an admin; 1 hour), the
 * confirmation of a new e-mail address (24 hours).
 * Personal mails: no notification-settings link.
 */
import { renderMail, type MailContent } from '../compose.js';

interface Person {
  name: string;
  email: string;
}

export function invitationMail(d: { accountName: string; agent: Person; invitedBy: string; url: string; expiresAt: string }): MailContent {
  return renderMail({
    subject: `You are invited to answer chats for ${d.accountName}`,
    heading: `Hello ${d.agent.name},`,
    accountName: d.accountName,
    blocks: [
      { kind: 'p', text: `${d.invitedBy} invited you to answer chats for ${d.accountName} on Parley. Your sign-in name is ${d.agent.email}.` },
      { kind: 'p', text: 'Choose your password with this link. It works once, until ' + d.expiresAt + '.' },
      { kind: 'link', label: 'Choose my password', url: d.url },
      { kind: 'p', text: 'If you did not expect this invitation, ignore this mail: nothing happens until the link is used.' },
    ],
  });
}

export function passwordResetMail(d: { accountName: string; agent: Person; forcedBy: string | null; url: string; expiresAt: string }): MailContent {
  return renderMail({
    subject: `Reset your ${d.accountName} password`,
    heading: `Hello ${d.agent.name},`,
    accountName: d.accountName,
    blocks: [
      {
        kind: 'p',
        text: d.forcedBy
          ? `${d.forcedBy}, an administrator of ${d.accountName}, asked you to choose a new password for ${d.agent.email}. Your old password no longer works.`
          : `Someone (hopefully you) asked to reset the password of ${d.agent.email} on Parley.`,
      },
      { kind: 'p', text: `Choose a new password with this link. It works once, until ${d.expiresAt}.` },
      { kind: 'link', label: 'Choose a new password', url: d.url },
      ...(d.forcedBy ? [] : [{ kind: 'p' as const, text: 'If you did not ask for this, ignore this mail: your password stays as it is.' }]),
    ],
  });
}

/** To the new address an agent gave for itself: the link that makes it the agent's e-mail (domain/agents/emailChanges.ts). */
export function emailChangeMail(d: { accountName: string; agent: Person; newEmail: string; url: string; expiresAt: string }): MailContent {
  return renderMail({
    subject: `Confirm your new e-mail address for ${d.accountName}`,
    heading: `Hello ${d.agent.name},`,
    accountName: d.accountName,
    blocks: [
      {
        kind: 'p',
        text: `You asked to use ${d.newEmail} as your e-mail address for ${d.accountName} on Parley, in place of ${d.agent.email}. It becomes your sign-in name and the address Parley writes to once you open this link (until ${d.expiresAt}).`,
      },
      { kind: 'link', label: 'Use this address', url: d.url },
      { kind: 'p', text: `If you did not ask for this, ignore this mail: the address stays ${d.agent.email}.` },
    ],
  });
}
