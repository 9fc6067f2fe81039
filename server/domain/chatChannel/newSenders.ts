/**
 * The first messages of new senders in a group-commit batch (storeInboundBatch.ts):
 * their visitors, visitor numbers and chats written for the whole batch at once,
 * as the batch's storeEach would write them one sender after the other
 * (createVisitor's insert, then openChat's pending chat and chats count, and
 * its chat.created event presenting both). On PostgreSQL the numbers, visitors and chats are one
 * statement; on SQLite one per account for the numbers, one for the visitors,
 * one for the chats. The rows and their inserts are the owners' (visitors/insertVisitors.ts,
 * chats/insertChats.ts): this module only ties them together.
 *
 * A new sender is written here only when storeEach would write nothing else
 * for it: every job of the sender in the batch is a message, all with the same
 * sender details (so its later messages change nothing on the visitor). When
 * its account routes new chats, the chat's first offer is picked before the
 * chats are inserted and written after them (routing/firstOffers.ts), as
 * openChat's startRouting would make it. The rest is left to storeEach.
 *
 * Each chat is inserted with its last sequence number already moved past the
 * events the batch writes for it (chat.created, then its messages'); its
 * chat.created payload presents the chat as inserted alone (`seq` 0) and the
 * visitor with its chats count of 1, as openChat's event does.
 */
import { sql } from 'kysely';
import { isPostgres, type Tx } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { Chat, Visitor } from '../../db/schema.js';
import type { EventPayloads } from '../../events/catalogue.js';
import { presentChat } from '../../presenters/chat.js';
import { insertChatsSqlite, insertChatsStep, newChatRow, type NewChat } from '../chats/insertChats.js';
import { accountRouting, type AccountRouting } from '../routing/routingConfig.js';
import { insertVisitorsSqlite, insertVisitorsStep, newVisitorRow, type NewVisitor } from '../visitors/insertVisitors.js';
import { pageOf, senderDetails, visitorInputOf, type InboundJob } from './inboundJob.js';

/** Thrown when another transaction created one of the batch's new visitors meanwhile: the batch is then written job by job (db/groupCommit.ts), as alone. */
export class NewSenderConflict extends Error {
  constructor() {
    super('storeInboundBatch: a new visitor of the batch was created by another transaction');
  }
}

/** A new sender's visitor and chat as storeEach has them when its chat.created is recorded. */
export interface OpenedChat {
  visitor: Visitor;
  /** The chat as inserted alone (last_seq 0): what its chat.created presents. */
  chat: Chat;
  /** Its first offer's chat.offered event, written after its chat.created (routing/firstOffers.ts); absent when offered to nobody. */
  offered?: EventPayloads['chat.offered'] | null;
}

/** The sender as its jobs describe it: jobs that agree on it write the same visitor whichever of them comes first. */
function senderOf(job: InboundJob): string {
  const d = senderDetails(job.req);
  return JSON.stringify([job.req.sender.idIsNumber, d.name, d.phone, d.email, d.photo, d.url, d.invite]);
}

/** Whether a new sender's jobs (in arrival order) can be written here: messages only, all with the same sender details. */
export function isPlainNewSender(jobs: InboundJob[]): boolean {
  const first = senderOf(jobs[0]);
  return jobs.every((job) => job.req.kind === 'message' && senderOf(job) === first);
}

/** The routing settings of the accounts given (their chat-channel chats have no department): one read per account, as startRouting's. */
export async function accountRoutings(tx: Tx, accountIds: Iterable<number>): Promise<Map<number, AccountRouting>> {
  const routings = new Map<number, AccountRouting>();
  for (const accountId of new Set(accountIds)) routings.set(accountId, await accountRouting(tx, accountId));
  return routings;
}

/** The chat.created payload of an opened chat, as openChat's recordChatState writes it. */
export function chatCreatedPayload({ chat, visitor }: OpenedChat): EventPayloads['chat.created'] {
  return { chat: presentChat(chat, visitor) };
}

/** The visitor row createVisitor inserts, with the chats count openChat then sets. */
function visitorRow(job: InboundJob): NewVisitor {
  return newVisitorRow({ ...visitorInputOf(job), chatsCount: 1 });
}

/** The chat row openChat inserts (last_seq 0: the caller's events move it on). */
function chatRow(job: InboundJob): NewChat {
  return newChatRow({ accountId: job.channel.account_id, channelId: job.channel.id, page: pageOf(job), now: job.now });
}

/**
 * Opens the visitors and chats of new senders, one job each (the sender's first
 * message to store), in the given order (their visitor numbers ascend in it).
 * `events[i]`: how many events the batch writes for job i's chat (its last
 * sequence number once they are written).
 */
export async function openNewSenders(tx: Tx, firsts: InboundJob[], events: number[]): Promise<OpenedChat[]> {
  if (firsts.length === 0) return [];
  const visitors = firsts.map(visitorRow);
  const chats = firsts.map(chatRow);
  // Each account's visitors take consecutive numbers in this order.
  const perAccount = new Map<number, number>();
  const ord = visitors.map((v) => {
    const n = perAccount.get(v.account_id) ?? 0;
    perAccount.set(v.account_id, n + 1);
    return n;
  });
  const rows = await (isPostgres(tx) ? openPostgres : openSqlite)(tx, { visitors, chats, ord, perAccount, events });
  const byKey = new Map(rows.map((r) => [`${r.channel_id}\n${r.external_id}`, r]));
  return visitors.map((v, i) => {
    const row = byKey.get(`${v.channel_id}\n${v.external_id}`);
    if (!row) throw new NewSenderConflict();
    return { visitor: { id: row.id, number: row.number, ...v }, chat: { id: row.chat_id, visitor_id: row.id, ...chats[i] } };
  });
}

/** What both dialects' openers take: the rows, each visitor's place among its account's new ones, how many per account, the chats' event seqs. */
interface OpenInput {
  visitors: NewVisitor[];
  chats: NewChat[];
  ord: number[];
  perAccount: Map<number, number>;
  events: number[];
}

interface OpenedRow {
  id: number;
  channel_id: number;
  external_id: string;
  number: number;
  chat_id: number;
}

/** PostgreSQL: the numbers taken, the visitors inserted (a conflict skipped), and their chats, in one statement. */
async function openPostgres(tx: Tx, { visitors, chats, ord, perAccount, events }: OpenInput): Promise<OpenedRow[]> {
  const result = await sql<OpenedRow>`with nums as (
      update accounts set next_visitor_number = accounts.next_visitor_number + k.n
      from unnest(cast(${[...perAccount.keys()]} as integer[]), cast(${[...perAccount.values()]} as integer[])) as k(id, n)
      where accounts.id = k.id
      returning accounts.id, accounts.next_visitor_number - k.n as base
    ), input as (
      select * from unnest(cast(${visitors.map((r) => r.account_id)} as integer[]), cast(${visitors.map((r) => r.channel_id)} as integer[]),
        cast(${visitors.map((r) => r.external_id)} as text[]), cast(${ord} as integer[]))
        with ordinality as i(account_id, channel_id, external_id, ord, position)
    ), v as (
      ${insertVisitorsStep(visitors, sql`select i.position, nums.base + i.ord as number from input i join nums on nums.id = i.account_id`)}
    ), c as (
      ${insertChatsStep(
        chats.map((chat, i) => ({ ...chat, last_seq: events[i] })),
        sql`select i.position, v.id as visitor_id from v join input i on i.channel_id = v.channel_id and i.external_id = v.external_id`,
      )}
    )
    select v.id, v.channel_id, v.external_id, v.number, c.id as chat_id from v join c on c.visitor_id = v.id`.execute(tx);
  return result.rows;
}

const takeNumbers = prepared(['accountId', 'n'], (db, p: { accountId: number; n: number }) =>
  db
    .updateTable('accounts')
    .set({ next_visitor_number: sql<number>`next_visitor_number + ${p.n}` })
    .where('id', '=', p.accountId)
    .returning('next_visitor_number'),
);

/** SQLite: each account's numbers (one statement each), the visitors, then their chats, each a multi-row insert from a JSON array. */
async function openSqlite(tx: Tx, { visitors, chats, ord, perAccount, events }: OpenInput): Promise<OpenedRow[]> {
  const base = new Map<number, number>();
  for (const [accountId, n] of perAccount) base.set(accountId, (await takeNumbers.only(tx, { accountId, n })).next_visitor_number - n);
  const inserted = await insertVisitorsSqlite(
    tx,
    visitors.map((r, i) => ({ ...r, number: base.get(r.account_id)! + ord[i] })),
  );
  const byKey = new Map(inserted.map((r) => [`${r.channel_id}\n${r.external_id}`, r]));
  const toOpen = visitors.flatMap((v, i) => {
    const visitor = byKey.get(`${v.channel_id}\n${v.external_id}`);
    return visitor ? [{ ...chats[i], visitor_id: visitor.id, last_seq: events[i] }] : [];
  });
  const opened = await insertChatsSqlite(tx, toOpen);
  if (opened.length === 0) return [];
  const chatOf = new Map(opened.map((r) => [r.visitor_id, r.id]));
  return inserted.map((r) => ({ ...r, chat_id: chatOf.get(r.id)! }));
}
