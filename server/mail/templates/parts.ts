/**
 * The parts the mail templates share: a notification's footer (the account
 * and the link to where its addresses are set), a mail that opens with
 * label/value rows, and the rows that name a chat's visitor.
 */
import type { Visitor } from '../../db/schema.js';
import { renderMail, type Block, type Layout, type MailContent } from '../compose.js';
import type { MailScope } from '../recipients.js';
import { say } from './agentTexts/index.js';

type Row = Extract<Block, { kind: 'rows' }>['rows'][number];

/** The footer of a notification mail in `lang`: the account's name and the settings link. */
export const notificationFooter = (scope: Pick<MailScope, 'accountName' | 'settingsUrl'>, lang: string) => ({
  accountName: scope.accountName,
  settingsUrl: scope.settingsUrl,
  lang,
});

/** A mail whose first block is the label/value `rows`, then `rest`. */
export function rowsMail(layout: Omit<Layout, 'blocks'>, rows: Row[], ...rest: Block[]): MailContent {
  return renderMail({ ...layout, blocks: [{ kind: 'rows', rows }, ...rest] });
}

/** The rows naming a chat's visitor: its number, name, e-mail address and phone. */
export function visitorRows(lang: string, visitor: Pick<Visitor, 'number' | 'name' | 'email' | 'phone'> | null): Row[] {
  return [
    [say(lang, 'labelVisitor'), visitor ? `#${visitor.number}` : null],
    [say(lang, 'labelName'), visitor?.name],
    [say(lang, 'labelEmail'), visitor?.email],
    [say(lang, 'labelPhone'), visitor?.phone],
  ];
}
