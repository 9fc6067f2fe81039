/**
 * Search over the whole history (#20): chats whose messages contain the words
 * of `q` (full text: FTS5 on SQLite, a tsvector GIN index on PostgreSQL,
 * migration 028), or whose visitor's name, e-mail or phone contains it, with
 * filters (channel, agent, department, creation date, rating, status), newest
 * first, paged by chat id. On SQLite the page is found without reading
 * every match: the filtered chats are walked newest first in windows (ids
 * only, in id order on the (account_id, id) index of migration 043), each
 * window's matches read from the indexes within its message and visitor id
 * ranges, so a page among the newest chats costs one window; when matches turn
 * out sparse, a word's (or a visitor's) matches are listed newest first up to
 * searchTuning.matchCap and, when fewer, decide the rest of the page; when
 * more (a common word), the walk goes on. An agent finds only chats of the channels it
 * works, like every list. Each row says why it matched: the newest matching
 * message (or the visitor's field) as an excerpt with the match marked.
 */
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { AppContext } from '../../context.js';
import { isPostgres, type Executor } from '../../db/database.js';
import type { Agent, Chat, Database } from '../../db/schema.js';
import type { Page } from '../../db/page.js';
import { invalid } from '../../errors/AppError.js';
import type { ChatMatchDto } from '../../../protocol/agent.js';
import { chatRows, type ChatRowData } from './chatSummaries.js';
import { readableChannelIds } from './loadChat.js';
import { containing, fieldExcerpt, fts5Query, messageExcerpt, parseSearch, tsQuery, visitorFtsQuery, type SearchTerms } from './searchTerms.js';

/** A chat found: its list row's data and why it matched (presenters/chat.ts presentSearchHits shows it). */
export type ChatSearchHit = ChatRowData & { match: ChatMatchDto | null };

export interface ChatSearch {
  q?: string;
  channelId?: number;
  agentId?: number;
  departmentId?: number;
  /** Chats created at or after (epoch ms). */
  from?: number;
  /** Chats created before (epoch ms). */
  to?: number;
  rating?: 'positive' | 'negative' | 'none';
  status?: Chat['status'];
  page: Page;
}

/** Messages read per page of results to find each chat's matching message. */
const EXCERPT_SCAN = 5000;

/** Ids of chats with a message matching the words (suppressed messages never match). */
function messageChats(db: Executor, accountId: number, t: SearchTerms): Expression<number> {
  return isPostgres(db)
    ? sql<number>`(select m.chat_id from messages m where to_tsvector('simple'::regconfig, coalesce(m.text, '')) @@ to_tsquery('simple', ${tsQuery(t)}) and m.account_id = ${accountId} and m.suppressed = 0)`
    : sql<number>`(select m.chat_id from messages_fts join messages m on m.id = messages_fts.rowid where messages_fts match ${fts5Query(t)} and m.account_id = ${accountId} and m.suppressed = 0)`;
}

/** Ids of visitors whose name or e-mail contains q, or whose phone contains its digits; null when q can match none. */
function matchingVisitors(db: Executor, accountId: number, t: SearchTerms): Expression<number> | null {
  const fts = visitorFtsQuery(t);
  if (!isPostgres(db) && fts) return sql<number>`(select rowid from visitors_fts where visitors_fts match ${fts})`;
  if (!t.text && !t.digits) return null;
  const pattern = containing(t.text);
  const phone = t.digits
    ? isPostgres(db)
      ? sql<SqlBool>` or regexp_replace(coalesce(v.phone, ''), '[^0-9]', '', 'g') like ${containing(t.digits)}`
      : sql<SqlBool>` or replace(replace(replace(replace(replace(replace(coalesce(v.phone, ''), ' ', ''), '-', ''), '+', ''), '(', ''), ')', ''), '.', '') like ${containing(t.digits)} escape '\\'`
    : sql<SqlBool>``;
  return sql<number>`(select v.id from visitors v where v.account_id = ${accountId} and (lower(coalesce(v.name, '')) like ${pattern} escape '\\' or lower(coalesce(v.email, '')) like ${pattern} escape '\\'${phone}))`;
}

export async function searchChats(ctx: AppContext, input: ChatSearch & { actor: Agent }): Promise<ChatSearchHit[]> {
  const { db } = ctx;
  const agent = input.actor;
  const terms = input.q !== undefined && input.q.trim() !== '' ? parseSearch(input.q) : null;
  if (terms && terms.words.length === 0 && !terms.digits) throw invalid('q must contain a letter or a digit to search for.');
  if (input.from !== undefined && input.to !== undefined && input.from >= input.to) throw invalid('from must be before to.');
  const channels = await readableChannelIds(db, agent);
  if (channels && channels.length === 0) return [];

  let query: ChatQuery = db.selectFrom('chats').where('account_id', '=', agent.account_id);
  if (channels) query = query.where('channel_id', 'in', channels);
  if (input.channelId !== undefined) query = query.where('channel_id', '=', input.channelId);
  if (input.agentId !== undefined) query = query.where('accepted_by', '=', input.agentId);
  if (input.departmentId !== undefined) query = query.where('department_id', '=', input.departmentId);
  if (input.from !== undefined) query = query.where('created_at', '>=', input.from);
  if (input.to !== undefined) query = query.where('created_at', '<', input.to);
  if (input.rating === 'none') query = query.where('rate', 'is', null);
  else if (input.rating) query = query.where('rate', '=', input.rating);
  if (input.status) query = query.where('status', '=', input.status);
  if (input.page.before !== null) query = query.where('id', '<', input.page.before);
  if (terms && !isPostgres(db)) {
    const chats = await sqlitePage(db, agent.account_id, query, terms, input.page.limit);
    const rows = await chatRows(db, agent.id, chats);
    const matches = await matchesOf(db, rows, terms);
    return rows.map((row) => ({ ...row, match: matches.get(row.chat.id) ?? null }));
  }
  if (terms) {
    const byText = terms.words.length > 0 ? messageChats(db, agent.account_id, terms) : null;
    const byVisitor = matchingVisitors(db, agent.account_id, terms);
    query = query.where((eb) => eb.or([...(byText ? [eb('id', 'in', byText)] : []), ...(byVisitor ? [eb('visitor_id', 'in', byVisitor)] : [])]));
  }
  const chats = await query.selectAll().orderBy('id', 'desc').limit(input.page.limit).execute();
  const rows = await chatRows(db, agent.id, chats);
  const matches = terms ? await matchesOf(db, rows, terms) : new Map<number, ChatMatchDto>();
  return rows.map((row) => ({ ...row, match: matches.get(row.chat.id) ?? null }));
}

/**
 * SQLite's page finding: matches read newest first before a search stops
 * treating them as all the candidates (matchCap); the first window of chats
 * walked (the newest, before any list of matches is read) and the largest;
 * listed candidates checked against the filters per query (listChunk, read by
 * primary key); a window's messages read from the newest index entries down
 * when they are among the newest topRead message ids (FTS5 finds a rowid range
 * of a common word by reading most of the word's entries: tens of ms for a
 * word in 40 % of a million messages, while the newest entries cost a fraction
 * of a microsecond each), else as a range. Tests shrink them to take each path.
 */
export const searchTuning = { matchCap: 5000, firstWindow: 500, maxWindow: 4000, listChunk: 1000, topRead: 20_000 };

/** The filtered chats, nothing selected yet. */
type ChatQuery = SelectQueryBuilder<Database, 'chats', object>;

/** The newest matching ids, or null when there are searchTuning.matchCap or more (too many to list). */
async function fewMatches(db: Executor, from: 'messages' | 'visitors', match: string, accountId: number): Promise<Set<number> | null> {
  const rows =
    from === 'messages'
      ? await sql<{
          chat_id: number;
          ok: number;
        }>`select m.chat_id, (m.account_id = ${accountId} and m.suppressed = 0) as ok from (select rowid from messages_fts where messages_fts match ${match} order by rowid desc limit ${searchTuning.matchCap}) f cross join messages m on m.id = f.rowid`.execute(
          db,
        )
      : await sql<{
          chat_id: number;
          ok: number;
        }>`select rowid as chat_id, 1 as ok from visitors_fts where visitors_fts match ${match} order by rowid desc limit ${searchTuning.matchCap}`.execute(db);
  if (rows.rows.length >= searchTuning.matchCap) return null;
  return new Set(rows.rows.filter((r) => r.ok).map((r) => r.chat_id));
}

/**
 * SQLite: a page of chats matching the terms (text or visitor), newest first,
 * read without listing every match. The filtered chats are walked newest first
 * in windows (ids and visitors only: whole rows cost ten times more to read),
 * each window's matches read from the indexes within its id ranges; a page
 * found in the first window needs nothing else. When the matches seen so far
 * are sparse (filling the page would take more than two of the largest
 * windows), the matches are listed once instead (fewMatches), and whichever
 * list is short enough decides the rest of the page; when neither is, the
 * walk goes on. The next window is sized from the matches seen so far.
 */
async function sqlitePage(db: Executor, accountId: number, filtered: ChatQuery, t: SearchTerms, limit: number): Promise<Chat[]> {
  const textQuery = t.words.length > 0 ? fts5Query(t) : null;
  const visitorQuery = visitorFtsQuery(t);
  // Each side's matches: a set when known (listed, or nothing to match), null while read per window.
  let byText: Set<number> | null = textQuery ? null : new Set();
  let byVisitor: Set<number> | null = visitorQuery ? null : new Set();
  const found: number[] = [];
  let walked = 0;
  let cursor: number | null = null;
  let listed = false;
  for (;;) {
    const wanted = limit - found.length;
    const size =
      walked === 0
        ? searchTuning.firstWindow
        : Math.min(searchTuning.maxWindow, Math.max(searchTuning.firstWindow, Math.ceil((1.5 * wanted * walked) / Math.max(found.length, 1))));
    let q = filtered.select(['id', 'visitor_id']);
    if (cursor !== null) q = q.where('id', '<', cursor);
    const batch = await q.orderBy('id', 'desc').limit(size).execute();
    if (batch.length === 0) break;
    const chatIds = batch.map((c) => c.id);
    const visitorIds = batch.map((c) => c.visitor_id);
    const textHits = byText ?? (await windowTextHits(db, textQuery!, chatIds));
    const visitorHits = byVisitor ?? (await windowVisitorHits(db, visitorQuery!, visitorIds));
    for (const chat of batch) {
      if (textHits.has(chat.id) || visitorHits.has(chat.visitor_id)) found.push(chat.id);
      if (found.length === limit) return chatsById(db, found);
    }
    if (batch.length < size) break;
    cursor = batch[batch.length - 1].id;
    walked += batch.length;
    const sparse = found.length === 0 || ((limit - found.length) * walked) / found.length > 2 * searchTuning.maxWindow;
    if (!sparse || listed) continue;
    listed = true;
    byText ??= await fewMatches(db, 'messages', textQuery!, accountId);
    byVisitor ??= await fewMatches(db, 'visitors', visitorQuery!, accountId);
    if (byText && byVisitor)
      return chatsById(db, [...found, ...(await listedPage(db, filtered.where('id', '<', cursor), byText, byVisitor, limit - found.length))]);
  }
  return chatsById(db, found);
}

/**
 * The newest `limit` filtered chats among these chats (text matches) and the
 * chats of these visitors, ids only. The visitors' chats are read by visitor
 * first: a filter of `visitor_id in (…)` over the account's chats would let
 * SQLite walk them all on the (account_id, id) index to skip a sort.
 */
async function listedPage(db: Executor, filtered: ChatQuery, chatIds: Set<number>, visitorIds: Set<number>, limit: number): Promise<number[]> {
  const ofVisitors =
    visitorIds.size === 0
      ? []
      : await db
          .selectFrom('chats')
          .select('id')
          .where('visitor_id', 'in', [...visitorIds])
          .execute();
  const candidates = [...new Set([...chatIds, ...ofVisitors.map((c) => c.id)])].sort((x, y) => y - x);
  const page: number[] = [];
  for (let i = 0; i < candidates.length && page.length < limit; i += searchTuning.listChunk) {
    const rows = await filtered
      .select('id')
      .where('id', 'in', candidates.slice(i, i + searchTuning.listChunk))
      .orderBy('id', 'desc')
      .limit(limit - page.length)
      .execute();
    page.push(...rows.map((c) => c.id));
  }
  return page;
}

/** Whole chat rows of these ids, in the order given. */
async function chatsById(db: Executor, ids: number[]): Promise<Chat[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('chats').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((c) => [c.id, c]));
  return ids.map((id) => byId.get(id)!);
}

/** Which of these visitors match, read from the trigram index within their id range. */
async function windowVisitorHits(db: Executor, match: string, visitorIds: number[]): Promise<Set<number>> {
  const found = await sql<{
    id: number;
  }>`select rowid as id from visitors_fts where visitors_fts match ${match} and rowid between ${Math.min(...visitorIds)} and ${Math.max(...visitorIds)}`.execute(
    db,
  );
  return new Set(found.rows.map((r) => r.id));
}

/**
 * Which of these chats have a message matching, read from the index within
 * their messages' id range: from the newest entries down when the range is
 * among the newest searchTuning.topRead message ids, else as a range.
 */
async function windowTextHits(db: Executor, match: string, chatIds: number[]): Promise<Set<number>> {
  const low = Math.min(...chatIds);
  const high = Math.max(...chatIds);
  const bounds = await sql<{
    lo: number | null;
    hi: number | null;
    top: number | null;
  }>`select min(id) as lo, max(id) as hi, (select max(id) from messages) as top from messages where chat_id between ${low} and ${high}`.execute(db);
  const { lo, hi, top } = bounds.rows[0] ?? { lo: null, hi: null, top: null };
  if (lo === null || hi === null || top === null) return new Set();
  // No more than top - lo + 1 entries have a rowid of lo or more: reading that many from the newest reaches lo.
  const entries =
    top - lo < searchTuning.topRead
      ? sql`(select rowid from messages_fts where messages_fts match ${match} order by rowid desc limit ${top - lo + 1})`
      : sql`(select rowid from messages_fts where messages_fts match ${match} and rowid between ${lo} and ${hi})`;
  const rows = await sql<{
    chat_id: number;
  }>`select distinct m.chat_id from ${entries} f cross join messages m on m.id = f.rowid where f.rowid between ${lo} and ${hi} and m.chat_id between ${low} and ${high} and m.suppressed = 0`.execute(
    db,
  );
  const wanted = new Set(chatIds);
  return new Set(rows.rows.map((r) => r.chat_id).filter((id) => wanted.has(id)));
}

/** Why each chat matched: its newest matching message, else the visitor's name, e-mail or phone. */
async function matchesOf(db: Executor, rows: ChatRowData[], t: SearchTerms): Promise<Map<number, ChatMatchDto>> {
  const found = new Map<number, ChatMatchDto>();
  if (rows.length === 0) return found;
  if (t.words.length > 0) {
    const messages = await db
      .selectFrom('messages')
      .select(['id', 'chat_id', 'text', 'created_at'])
      .where(
        'chat_id',
        'in',
        rows.map((r) => r.chat.id),
      )
      .where('suppressed', '=', 0)
      .where('text', 'is not', null)
      .orderBy('id', 'desc')
      .limit(EXCERPT_SCAN)
      .execute();
    for (const m of messages) {
      if (found.has(m.chat_id)) continue;
      const parts = messageExcerpt(m.text ?? '', t);
      if (parts) found.set(m.chat_id, { field: 'message', message_id: m.id, created_at: m.created_at, parts });
    }
  }
  for (const row of rows) {
    if (found.has(row.chat.id)) continue;
    const v = row.visitor;
    const field =
      (['name', 'email'] as const).map((f) => [f, fieldExcerpt(v[f], t, false)] as const).find(([, parts]) => parts) ??
      (['phone'] as const).map((f) => [f, fieldExcerpt(v.phone, t, true)] as const).find(([, parts]) => parts);
    if (field?.[1]) found.set(row.chat.id, { field: field[0], parts: field[1] });
  }
  return found;
}
