/**
 * The mails of the account lifecycle, sent to one person: the invitation
 * (an admin added them; set a password within 72 hours) and the password
 * reset (asked for on the sign-in page, or forced by an admin; 1 hour), the
 * confirmation of a new e-mail address (24 hours). Each in `lang`, the
 * language of the person it goes to (mailLanguages.ts; an invitation: the
 * inviting admin's, as the invited person has chosen none yet).
 * Personal mails: no notification-settings link.
 */
import { renderMail, type Block, type MailContent } from '../compose.js';
import { say, type TextKey } from './agentTexts/index.js';

interface Person {
  name: string;
  email: string;
}

/** A mail to `d.agent` about its account: "<subject> (account)", "Hello <name>", then `blocks`. */
function personalMail(d: { accountName: string; agent: Person }, lang: string, subject: TextKey, blocks: Block[]): MailContent {
  return renderMail({
    subject: say(lang, subject, { account: d.accountName }),
    heading: say(lang, 'hello', { name: d.agent.name }),
    accountName: d.accountName,
    lang,
    blocks,
  });
}

/** `invitedBy`: the inviting admin's name; null when it is not known. */
export function invitationMail(d: { accountName: string; agent: Person; invitedBy: string | null; url: string; expiresAt: string }, lang = 'en'): MailContent {
  const account = d.accountName;
  return personalMail(d, lang, 'invitationSubject', [
    {
      kind: 'p',
      text: d.invitedBy
        ? say(lang, 'invitationIntro', { by: d.invitedBy, account, email: d.agent.email })
        : say(lang, 'invitationIntroNoName', { account, email: d.agent.email }),
    },
    { kind: 'p', text: say(lang, 'invitationLink', { time: d.expiresAt }) },
    { kind: 'link', label: say(lang, 'invitationButton'), url: d.url },
    { kind: 'p', text: say(lang, 'invitationIgnore') },
  ]);
}

export function passwordResetMail(
  d: { accountName: string; agent: Person; forcedBy: string | null; url: string; expiresAt: string },
  lang = 'en',
): MailContent {
  const account = d.accountName;
  return personalMail(d, lang, 'resetSubject', [
    {
      kind: 'p',
      text: d.forcedBy ? say(lang, 'resetForced', { by: d.forcedBy, account, email: d.agent.email }) : say(lang, 'resetAsked', { email: d.agent.email }),
    },
    { kind: 'p', text: say(lang, 'resetLink', { time: d.expiresAt }) },
    { kind: 'link', label: say(lang, 'resetButton'), url: d.url },
    ...(d.forcedBy ? [] : [{ kind: 'p' as const, text: say(lang, 'resetIgnore') }]),
  ]);
}

/** To the new address an agent gave for itself: the link that makes it the agent's e-mail (domain/agents/emailChanges.ts). */
export function emailChangeMail(d: { accountName: string; agent: Person; newEmail: string; url: string; expiresAt: string }, lang = 'en'): MailContent {
  const account = d.accountName;
  return personalMail(d, lang, 'emailChangeSubject', [
    { kind: 'p', text: say(lang, 'emailChangeIntro', { newEmail: d.newEmail, account, email: d.agent.email, time: d.expiresAt }) },
    { kind: 'link', label: say(lang, 'emailChangeButton'), url: d.url },
    { kind: 'p', text: say(lang, 'emailChangeIgnore', { email: d.agent.email }) },
  ]);
}
