/**
 * Search over the whole history (#20, domain/chats/searchChats.ts).
 *
 * SQLite: `messages_fts`, an FTS5 index of message text (external content:
 * the text stays in `messages`, rowid = message id; unicode61 words, accents
 * folded), and `visitors_fts`, a trigram index of visitors' name, e-mail and
 * phone digits (contentless, so the phone can be indexed as digits only), for
 * substring matches. Triggers keep both in step with their tables; a visitor's
 * row is re-indexed only when one of those three fields really changes, so the
 * chat channel's per-message visitor update costs nothing here. The rows that
 * exist are indexed once, below.
 *
 * PostgreSQL: a GIN index on the message text's tsvector (the 'simple'
 * configuration: words as written, no language's stemming), an expression
 * index that needs no trigger; visitors are few next to messages and are
 * matched by a scan.
 */
import { sql } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

/** SQL of a phone's digits only (SQLite has no regexp_replace). */
const digits = (column: string) => `replace(replace(replace(replace(replace(replace(${column}, ' ', ''), '-', ''), '+', ''), '(', ''), ')', ''), '.', '')`;

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  if (k.dialect === 'postgres') {
    await sql`create index messages_text_search on messages using gin (to_tsvector('simple'::regconfig, coalesce(text, '')))`.execute(db);
    return;
  }
  const statements = [
    `create virtual table messages_fts using fts5(text, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
    `create trigger messages_fts_insert after insert on messages when new.text is not null begin
       insert into messages_fts(rowid, text) values (new.id, new.text);
     end`,
    `create trigger messages_fts_delete after delete on messages when old.text is not null begin
       insert into messages_fts(messages_fts, rowid, text) values ('delete', old.id, old.text);
     end`,
    `create trigger messages_fts_update after update of text on messages when old.text is not new.text begin
       insert into messages_fts(messages_fts, rowid, text) select 'delete', old.id, old.text where old.text is not null;
       insert into messages_fts(rowid, text) select new.id, new.text where new.text is not null;
     end`,
    `insert into messages_fts(rowid, text) select id, text from messages where text is not null`,
    `create virtual table visitors_fts using fts5(name, email, phone, content='', contentless_delete=1, tokenize='trigram')`,
    `create trigger visitors_fts_insert after insert on visitors begin
       insert into visitors_fts(rowid, name, email, phone) values (new.id, new.name, new.email, ${digits('new.phone')});
     end`,
    `create trigger visitors_fts_delete after delete on visitors begin
       delete from visitors_fts where rowid = old.id;
     end`,
    `create trigger visitors_fts_update after update of name, email, phone on visitors
       when old.name is not new.name or old.email is not new.email or old.phone is not new.phone begin
       delete from visitors_fts where rowid = old.id;
       insert into visitors_fts(rowid, name, email, phone) values (new.id, new.name, new.email, ${digits('new.phone')});
     end`,
    `insert into visitors_fts(rowid, name, email, phone) select id, name, email, ${digits('phone')} from visitors`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
