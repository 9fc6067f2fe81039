/**
 * What a search's words mean, for both stores and for the excerpt (#20):
 * the words of `q` (letters and digits; a query in double quotes is one
 * phrase), each matching a whole word of a message, except the last word when
 * it is short (PREFIX_MAX_LENGTH letters or fewer: a word still being typed),
 * which matches the words that start with it; `q` as a
 * substring of the visitor's name or e-mail; its digits as a substring of the
 * visitor's phone. The excerpt is plain-text parts with the matching words
 * marked, never markup.
 */
import type { ChatMatchDto } from '../../presenters/chat.js';

export interface SearchTerms {
  /** The words, lower-cased, as typed (the stores fold accents themselves). */
  words: string[];
  phrase: boolean;
  /** Whether the last word matches as a prefix (it is short: still being typed). */
  prefix: boolean;
  /** q lower-cased, for name and e-mail. */
  text: string;
  /** q's digits when q looks like a phone number (3 digits or more), else null. */
  digits: string | null;
}

const WORD = /[\p{L}\p{N}]+/gu;
const MAX_WORDS = 12;
/**
 * The last word is searched as a prefix only up to this length ("kett" finds
 * "kettle"); longer words are whole words ("refun" does not find "refund").
 * A prefix makes FTS5 read every match of it before a chat is picked, so a
 * long common word ("order") as a prefix would cost seconds over a large
 * history, while a whole word is read newest first, only as far as a page.
 */
export const PREFIX_MAX_LENGTH = 4;

export function parseSearch(q: string): SearchTerms {
  const trimmed = q.trim();
  const phrase = trimmed.length > 2 && trimmed.startsWith('"') && trimmed.endsWith('"');
  const text = (phrase ? trimmed.slice(1, -1) : trimmed).trim().toLowerCase();
  const words = (text.match(WORD) ?? []).slice(0, MAX_WORDS);
  const onlyDigits = text.replace(/[\s().+-]/g, '');
  const digits = /^\d{3,}$/.test(onlyDigits) ? onlyDigits : null;
  const last = words[words.length - 1];
  const prefix = last !== undefined && [...last].length <= PREFIX_MAX_LENGTH;
  return { words, phrase, prefix, text, digits };
}

const isPrefix = (t: SearchTerms, i: number) => t.prefix && i === t.words.length - 1;

/** FTS5 query: every word as a quoted term (AND), or one quoted phrase; a short last word as a prefix. */
export function fts5Query(t: SearchTerms): string {
  const star = t.prefix ? '*' : '';
  if (t.phrase) return `"${t.words.join(' ')}"${star}`;
  return t.words.map((w, i) => `"${w}"${isPrefix(t, i) ? '*' : ''}`).join(' AND ');
}

/** PostgreSQL tsquery text ('simple' configuration): terms joined by & (or <-> for a phrase); a short last word as a prefix. */
export function tsQuery(t: SearchTerms): string {
  return t.words.map((w, i) => `${w}${isPrefix(t, i) ? ':*' : ''}`).join(t.phrase ? ' <-> ' : ' & ');
}

/** FTS5 trigram query over visitors_fts: q in the name or e-mail, its digits in the phone. */
export function visitorFtsQuery(t: SearchTerms): string | null {
  const parts: string[] = [];
  if (t.text.length >= 3) parts.push(`{name email} : "${t.text.replace(/"/g, '""')}"`);
  if (t.digits) parts.push(`phone : "${t.digits}"`);
  return parts.length > 0 ? parts.join(' OR ') : null;
}

/** A LIKE pattern matching `text` anywhere, its wildcards escaped (escape character \). */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

const BEFORE = 40;
const LENGTH = 160;

/** Parts of `source` from `from` to `to`, the spans in `hits` marked. */
function cut(source: string, hits: Array<[number, number]>, from: number, to: number): ChatMatchDto['parts'] {
  const parts: ChatMatchDto['parts'] = [];
  let at = from;
  for (const [start, end] of hits) {
    if (end <= from || start >= to) continue;
    if (start > at) parts.push({ text: source.slice(at, start), hit: false });
    parts.push({ text: source.slice(Math.max(start, at), Math.min(end, to)), hit: true });
    at = Math.min(end, to);
  }
  if (at < to) parts.push({ text: source.slice(at, to), hit: false });
  if (from > 0) parts.unshift({ text: '…', hit: false });
  if (to < source.length) parts.push({ text: '…', hit: false });
  return parts;
}

/** A short excerpt around the first matching words of a message, or null when none matches. */
export function messageExcerpt(source: string, t: SearchTerms): ChatMatchDto['parts'] | null {
  const wanted = t.words.map(fold);
  if (wanted.length === 0) return null;
  const hits: Array<[number, number]> = [];
  const matches = (word: string, i: number) => (isPrefix(t, i) ? word.startsWith(wanted[i]) : word === wanted[i]);
  for (const m of source.matchAll(WORD)) {
    const word = fold(m[0]);
    if (wanted.some((_, i) => matches(word, i))) hits.push([m.index, m.index + m[0].length]);
  }
  const found = new Set(hits.map(([s, e]) => wanted.findIndex((_, i) => matches(fold(source.slice(s, e)), i))));
  if (!t.phrase && wanted.some((_, i) => !found.has(i))) return null;
  if (hits.length === 0) return null;
  const from = Math.max(0, hits[0][0] - BEFORE);
  const start = from === 0 ? 0 : Math.max(from, source.lastIndexOf(' ', from) + 1);
  return cut(source, hits, start, Math.min(source.length, start + LENGTH));
}

/** The visitor field `q` matches, as an excerpt (the whole field), or null. */
export function fieldExcerpt(value: string | null, t: SearchTerms, asPhone: boolean): ChatMatchDto['parts'] | null {
  if (!value) return null;
  if (asPhone) {
    if (!t.digits) return null;
    // Mark the phone's characters that carry the matching digits.
    const positions = [...value].map((c, i) => (/\d/.test(c) ? i : -1)).filter((i) => i >= 0);
    const digitsOnly = positions.map((i) => value[i]).join('');
    const at = digitsOnly.indexOf(t.digits);
    if (at < 0) return null;
    return cut(value, [[positions[at], positions[at + t.digits.length - 1] + 1]], 0, value.length);
  }
  if (!t.text) return null;
  const at = value.toLowerCase().indexOf(t.text);
  return at < 0 ? null : cut(value, [[at, at + t.text.length]], 0, value.length);
}
