/**
 * Erasure's reach into deliveries written before migration 054 (#33): 054
 * gave `deliveries` a `visitor_id`, so erasure (domain/erasure/) finds the
 * webhooks and mails about a visitor's offline messages and callback requests,
 * which belong to no chat. Rows written before it (0.0.1) have none, and the
 * mails among them have no event either: a notification mail about an offline
 * message (its text, the person's name, e-mail, phone) outlived the erasure of
 * its visitor, up to `RETENTION_DAYS`. This links them to their visitor once:
 *
 * - event webhooks about an offline message or a call: the visitor their event
 *   (`event_id`) names, while that event is kept;
 * - callback request mails: the call their link names (`/calls?call=<id>`);
 * - offline message mails: the latest offline message of the account, made no
 *   later than the mail, whose every line is in the mail's text and, when it
 *   left an e-mail address, whose address is the mail's Reply-To.
 *
 * Only rows about no chat and of no visitor are looked at: the deliveries of the
 * mail and delivery logs older than 054, a bounded set (`RETENTION_DAYS`).
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

const PAGE = 500;

interface Legacy {
  id: number;
  account_id: number;
  kind: string;
  event_type: string;
  event_id: number | null;
  body: string;
  created_at: number | string;
}

function parse(text: string | null | undefined): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A string field of a stored mail's body, or ''. */
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The visitor an event of no chat names (offline_message.created, call.updated), as the subscribers read it. */
function visitorOfEvent(type: string, data: Record<string, unknown> | null): number | null {
  if (!data) return null;
  const raw = type === 'offline_message.created' ? (data.offline_message as Record<string, unknown> | undefined)?.visitor_id : data.visitor_id;
  return typeof raw === 'number' ? raw : null;
}

async function webhookVisitor(db: AnyDb, row: Legacy): Promise<number | null> {
  if (row.event_id === null) return null;
  const event = await db.selectFrom('events').select(['type', 'data_json']).where('id', '=', row.event_id).executeTakeFirst();
  const type = textOf(event?.type);
  if (!['offline_message.created', 'call.updated'].includes(type)) return null;
  return visitorOfEvent(type, parse(textOf(event?.data_json)));
}

async function callbackMailVisitor(db: AnyDb, row: Legacy, mail: Record<string, unknown>): Promise<number | null> {
  const callId = /\/calls\?call=(\d+)/.exec(`${textOf(mail.text)}\n${textOf(mail.html)}`)?.[1];
  if (!callId) return null;
  const call = await db.selectFrom('calls').select('visitor_id').where('id', '=', Number(callId)).where('account_id', '=', row.account_id).executeTakeFirst();
  const visitor: unknown = call?.visitor_id;
  return typeof visitor === 'number' ? visitor : null;
}

async function offlineMailVisitor(db: AnyDb, row: Legacy, mail: Record<string, unknown>): Promise<number | null> {
  const text = textOf(mail.text);
  const replyTo = typeof mail.reply_to === 'string' ? mail.reply_to : null;
  // The offline messages made up to the mail, newest first: the mail is written when its event is relayed, after it.
  const candidates = (await db
    .selectFrom('offline_messages')
    .select(['visitor_id', 'email', 'message'])
    .where('account_id', '=', row.account_id)
    .where('created_at', '<=', Number(row.created_at))
    .where('visitor_id', 'is not', null)
    .orderBy('id', 'desc')
    .limit(PAGE)
    .execute()) as Array<{ visitor_id: number; email: string | null; message: string }>;
  for (const c of candidates) {
    if (c.email !== null && c.email !== replyTo) continue;
    const lines = c.message
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '');
    if (lines.length > 0 && lines.every((l) => text.includes(l))) return c.visitor_id;
  }
  return null;
}

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = (await db
      .selectFrom('deliveries')
      .select(['id', 'account_id', 'kind', 'event_type', 'event_id', 'body', 'created_at'])
      .where('id', '>', after)
      .where('visitor_id', 'is', null)
      .where('chat_id', 'is', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('kind', '=', 'event_webhook'), eb('event_id', 'is not', null)]),
          eb.and([eb('kind', '=', 'mail'), eb('event_type', 'in', ['mail.offline_message', 'mail.callback_request'])]),
        ]),
      )
      .orderBy('id')
      .limit(PAGE)
      .execute()) as Legacy[];
    if (rows.length === 0) return;
    for (const row of rows) {
      const mail = row.kind === 'mail' ? parse(row.body) : null;
      const visitor =
        row.kind === 'event_webhook'
          ? await webhookVisitor(db, row)
          : !mail
            ? null
            : row.event_type === 'mail.callback_request'
              ? await callbackMailVisitor(db, row, mail)
              : await offlineMailVisitor(db, row, mail);
      if (visitor !== null) await db.updateTable('deliveries').set({ visitor_id: visitor }).where('id', '=', row.id).execute();
    }
    after = Number(rows.at(-1)!.id);
  }
}
