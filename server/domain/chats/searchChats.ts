/**
 * Search over the whole history (#20): chats whose messages contain the words
 * of `q` (full text: FTS5 on SQLite, a tsvector GIN index on PostgreSQL,
 * migration 028), or whose visitor's name, e-mail or phone contains it, with
 * filters (channel, agent, department, creation date, rating, status), newest
 * first, paged by chat id. On SQLite the page is found without reading
 * every match: a word's (or a visitor's) matches are read newest first up to
 * searchTuning.matchCap; when there are fewer, they are all the candidates; when there are
 * more (a common word), the filtered chats are walked newest first in growing
 * windows and each window's matches read from the index within the window's
 * message (and visitor) id range, until a page is full. An agent finds only chats of the channels it
 * works, like every list. Each row says why it matched: the newest matching
 * message (or the visitor's field) as an excerpt with the match marked.
 */
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { AppContext } from '../../context.js';
import { isPostgres, type Executor } from '../../db/database.js';
import type { Agent, Chat, Database } from '../../db/schema.js';
import type { Page } from '../../db/page.js';
import { invalid } from '../../errors/AppError.js';
import type { ChatDto, ChatMatchDto, ChatSearchHitDto } from '../../presenters/chat.js';
import { chatRows } from './chatSummaries.js';
import { readableChannelIds } from './loadChat.js';
import { containing, fieldExcerpt, fts5Query, messageExcerpt, parseSearch, tsQuery, visitorFtsQuery, type SearchTerms } from './searchTerms.js';

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

export async function searchChats(ctx: AppContext, input: ChatSearch & { actor: Agent }): Promise<ChatSearchHitDto[]> {
  const { db } = ctx;
  const agent = input.actor;
  const terms = input.q !== undefined && input.q.trim() !== '' ? parseSearch(input.q) : null;
  if (terms && terms.words.length === 0 && !terms.digits) throw invalid('q must contain a letter or a digit to search for.');
  if (input.from !== undefined && input.to !== undefined && input.from >= input.to) throw invalid('from must be before to.');
  const channels = await readableChannelIds(db, agent);
  if (channels && channels.length === 0) return [];

  let query = db.selectFrom('chats').selectAll().where('account_id', '=', agent.account_id);
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
    return rows.map((row) => ({ ...row, match: matches.get(row.id) ?? null }));
  }
  if (terms) {
    const byText = terms.words.length > 0 ? messageChats(db, agent.account_id, terms) : null;
    const byVisitor = matchingVisitors(db, agent.account_id, terms);
    query = query.where((eb) => eb.or([...(byText ? [eb('id', 'in', byText)] : []), ...(byVisitor ? [eb('visitor_id', 'in', byVisitor)] : [])]));
  }
  const chats = await query.orderBy('id', 'desc').limit(input.page.limit).execute();
  const rows = await chatRows(db, agent.id, chats);
  const matches = terms ? await matchesOf(db, rows, terms) : new Map<number, ChatMatchDto>();
  return rows.map((row) => ({ ...row, match: matches.get(row.id) ?? null }));
}

/**
 * SQLite's page finding: matches read newest first before a search stops
 * treating them as all the candidates (matchCap), and the first and largest
 * window of chats walked for a common word. Tests shrink them to walk windows.
 */
export const searchTuning = { matchCap: 5000, firstWindow: 500, maxWindow: 4000 };

type ChatQuery = SelectQueryBuilder<Database, 'chats', Chat>;

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

/** SQLite: a page of chats matching the terms (text or visitor), newest first, read without listing every match. */
async function sqlitePage(db: Executor, accountId: number, filtered: ChatQuery, t: SearchTerms, limit: number): Promise<Chat[]> {
  const textQuery = t.words.length > 0 ? fts5Query(t) : null;
  const visitorQuery = visitorFtsQuery(t);
  const byText = textQuery ? await fewMatches(db, 'messages', textQuery, accountId) : new Set<number>();
  const byVisitor = visitorQuery ? await fewMatches(db, 'visitors', visitorQuery, accountId) : new Set<number>();
  if (byText && byVisitor) {
    const [a, b] = await Promise.all([
      byText.size > 0
        ? filtered
            .where('id', 'in', [...byText])
            .orderBy('id', 'desc')
            .limit(limit)
            .execute()
        : [],
      byVisitor.size > 0
        ? filtered
            .where('visitor_id', 'in', [...byVisitor])
            .orderBy('id', 'desc')
            .limit(limit)
            .execute()
        : [],
    ]);
    const merged = new Map([...a, ...b].map((c) => [c.id, c]));
    return [...merged.values()].sort((x, y) => y.id - x.id).slice(0, limit);
  }
  const found: Chat[] = [];
  let window = searchTuning.firstWindow;
  let cursor: number | null = null;
  for (;;) {
    let q = filtered;
    if (cursor !== null) q = q.where('id', '<', cursor);
    const batch = await q.orderBy('id', 'desc').limit(window).execute();
    if (batch.length === 0) break;
    const ids = batch.map((c) => c.id);
    const textHits = byText ?? (await windowTextHits(db, textQuery!, ids));
    let visitorHits = byVisitor;
    if (!visitorHits) {
      const visitors = batch.map((c) => c.visitor_id);
      const found = await sql<{
        id: number;
      }>`select rowid as id from visitors_fts where visitors_fts match ${visitorQuery} and rowid between ${Math.min(...visitors)} and ${Math.max(...visitors)}`.execute(
        db,
      );
      visitorHits = new Set(found.rows.map((r) => r.id));
    }
    for (const chat of batch) {
      if (textHits.has(chat.id) || visitorHits.has(chat.visitor_id)) found.push(chat);
      if (found.length === limit) return found;
    }
    if (batch.length < window) break;
    cursor = ids[ids.length - 1];
    window = Math.min(window * 4, searchTuning.maxWindow);
  }
  return found;
}

/** Which of these chats have a message matching, read from the index within their messages' id range. */
async function windowTextHits(db: Executor, match: string, chatIds: number[]): Promise<Set<number>> {
  const low = Math.min(...chatIds);
  const high = Math.max(...chatIds);
  const bounds = await sql<{
    lo: number | null;
    hi: number | null;
  }>`select min(id) as lo, max(id) as hi from messages where chat_id between ${low} and ${high}`.execute(db);
  const { lo, hi } = bounds.rows[0] ?? { lo: null, hi: null };
  if (lo === null || hi === null) return new Set();
  const rows = await sql<{
    chat_id: number;
  }>`select distinct m.chat_id from messages_fts cross join messages m on m.id = messages_fts.rowid where messages_fts match ${match} and messages_fts.rowid between ${lo} and ${hi} and m.chat_id between ${low} and ${high} and m.suppressed = 0`.execute(
    db,
  );
  const wanted = new Set(chatIds);
  return new Set(rows.rows.map((r) => r.chat_id).filter((id) => wanted.has(id)));
}

/** Why each chat matched: its newest matching message, else the visitor's name, e-mail or phone. */
async function matchesOf(db: Executor, rows: ChatDto[], t: SearchTerms): Promise<Map<number, ChatMatchDto>> {
  const found = new Map<number, ChatMatchDto>();
  if (rows.length === 0) return found;
  if (t.words.length > 0) {
    const messages = await db
      .selectFrom('messages')
      .select(['id', 'chat_id', 'text', 'created_at'])
      .where(
        'chat_id',
        'in',
        rows.map((r) => r.id),
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
    if (found.has(row.id)) continue;
    const v = row.visitor;
    const field =
      (['name', 'email'] as const).map((f) => [f, fieldExcerpt(v[f], t, false)] as const).find(([, parts]) => parts) ??
      (['phone'] as const).map((f) => [f, fieldExcerpt(v.phone, t, true)] as const).find(([, parts]) => parts);
    if (field?.[1]) found.set(row.id, { field: field[0], parts: field[1] });
  }
  return found;
}
