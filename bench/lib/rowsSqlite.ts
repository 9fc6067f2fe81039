/**
 * The rows baseline on SQLite: better-sqlite3, WAL, synchronous=NORMAL,
 * foreign keys on (as Parley runs it). One transaction per request: the
 * visitor upserted by (channel, sender id) with its details, its open chat
 * found or created, the message inserted, and an outbox event row carrying the
 * message as JSON. The schema is the minimal straightforward one for those
 * rows, written for the benchmark: the unique key the upsert needs, one open
 * chat per visitor (a partial unique index that also finds it), messages by
 * chat (how any reader pages them) and the outbox's unsent rows (how its relay
 * finds them).
 *
 * With `search` (the "rows + search index" baseline), the messages' text and
 * the visitors' name, e-mail and phone are indexed as Parley indexes them for
 * its search (issue 20, migration 028): an FTS5 index of the text (unicode61,
 * accents folded) and a trigram index of the visitor's details, each kept by
 * triggers, the visitor's re-indexed only when a detail changed.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { messageJson, type RowsInput, type RowsStore } from './rowsInput.js';

const SCHEMA = `
create table if not exists visitors (
  id integer primary key,
  channel_id integer not null,
  sender_id text not null,
  name text, email text, phone text, url text,
  created_at integer not null,
  updated_at integer not null,
  unique (channel_id, sender_id)
);
create table if not exists chats (
  id integer primary key,
  visitor_id integer not null references visitors (id),
  status text not null,
  created_at integer not null
);
create unique index if not exists chats_open on chats (visitor_id) where status = 'open';
create table if not exists messages (
  id integer primary key,
  chat_id integer not null references chats (id),
  external_id text,
  type text not null,
  text text,
  created_at integer not null
);
create index if not exists messages_chat on messages (chat_id, id);
create table if not exists outbox (
  id integer primary key,
  payload text not null,
  created_at integer not null,
  sent_at integer
);
create index if not exists outbox_unsent on outbox (id) where sent_at is null;
`;

/** Parley's search indexes (server/db/migrations/028_search.ts); Parley indexes a phone's digits only, this indexes it as sent. */
const SEARCH = `
create virtual table if not exists messages_fts using fts5(text, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
create trigger if not exists messages_fts_insert after insert on messages when new.text is not null begin
  insert into messages_fts(rowid, text) values (new.id, new.text);
end;
create virtual table if not exists visitors_fts using fts5(name, email, phone, content='', contentless_delete=1, tokenize='trigram');
create trigger if not exists visitors_fts_insert after insert on visitors begin
  insert into visitors_fts(rowid, name, email, phone) values (new.id, new.name, new.email, new.phone);
end;
create trigger if not exists visitors_fts_update after update of name, email, phone on visitors
  when old.name is not new.name or old.email is not new.email or old.phone is not new.phone begin
  delete from visitors_fts where rowid = old.id;
  insert into visitors_fts(rowid, name, email, phone) values (new.id, new.name, new.email, new.phone);
end;
`;

export function rowsSqlite(dir: string, o: { search: boolean }): RowsStore {
  const db = new Database(path.join(dir, o.search ? 'rows-search.db' : 'rows.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);
  if (o.search) db.exec(SEARCH);
  const upsertVisitor = db.prepare<unknown[], { id: number }>(
    `insert into visitors (channel_id, sender_id, name, email, phone, url, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (channel_id, sender_id) do update set name = excluded.name, email = excluded.email, phone = excluded.phone, url = excluded.url, updated_at = excluded.updated_at
     returning id`,
  );
  const openChat = db.prepare<[number], { id: number }>("select id from chats where visitor_id = ? and status = 'open'");
  const createChat = db.prepare<[number, number], { id: number }>("insert into chats (visitor_id, status, created_at) values (?, 'open', ?) returning id");
  const insertMessage = db.prepare<unknown[], { id: number }>(
    "insert into messages (chat_id, external_id, type, text, created_at) values (?, ?, 'text', ?, ?) returning id",
  );
  const insertEvent = db.prepare('insert into outbox (payload, created_at) values (?, ?)');

  const write = db.transaction((i: RowsInput) => {
    const visitor = upsertVisitor.get(i.channelId, i.senderId, i.name, i.email, i.phone, i.url, i.now, i.now)!.id;
    const chat = openChat.get(visitor)?.id ?? createChat.get(visitor, i.now)!.id;
    const message = insertMessage.get(chat, i.externalId, i.text, i.now)!.id;
    const payload = messageJson(i, { message, chat, visitor });
    insertEvent.run(payload, i.now);
    return payload;
  });
  return {
    store: async (input) => write(input),
    close: async () => void db.close(),
  };
}
