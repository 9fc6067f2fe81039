/**
 * A chat's transcript as mails show it: who wrote (the visitor's name or
 * number, the agent's name, "Parley" for system lines), when (HH:MM in the
 * account's time zone), and what (text; a file's name and link; a place's
 * coordinates). Suppressed messages are never shown; private notes only in
 * the business's archive copy, marked as such. The words around them
 * ("Visitor 12", "Agent", "(private note)") are in the mail's language.
 */
import type { Executor } from '../db/database.js';
import type { Chat, Message, Visitor } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import { say } from './templates/agentTexts/index.js';

export interface TranscriptLine {
  who: string;
  at: string;
  text: string;
}

export interface ChatTranscript {
  chat: Chat;
  visitor: Pick<Visitor, 'number' | 'name' | 'email' | 'phone'> | null;
  channelName: string;
  /** contact_info of the chat_accepted answer, when the receiver gave one. */
  contact: { name?: string; phone?: string; email?: string; description?: string } | null;
  lines: TranscriptLine[];
}

function clock(at: number, timezone: string): string {
  const f = (timeZone: string) => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));
  try {
    return f(timezone);
  } catch {
    return f('UTC');
  }
}

function messageText(m: Message): string {
  if (m.text && m.type === 'text') return m.text;
  if (m.type === 'location' && m.latitude !== null && m.longitude !== null) return `[location] ${m.latitude}, ${m.longitude}`;
  if (m.file) return `[${m.type}] ${m.file_name ?? ''} ${m.file}`.replace(/\s+/g, ' ').trim();
  return m.text ?? `[${m.type}]`;
}

export async function loadTranscript(
  db: Executor,
  q: {
    accountId: number;
    chatId: number;
    timezone: string;
    withNotes: boolean;
    /** How the visitor's lines are signed; its name or number by default. */
    visitorName?: string;
    /** The mail's language (templates/agentTexts/); English by default. */
    lang?: string;
  },
): Promise<ChatTranscript | null> {
  const chat = await db.selectFrom('chats').selectAll().where('id', '=', q.chatId).where('account_id', '=', q.accountId).executeTakeFirst();
  if (!chat) return null;
  const visitor = (await db.selectFrom('visitors').select(['number', 'name', 'email', 'phone']).where('id', '=', chat.visitor_id).executeTakeFirst()) ?? null;
  const channel = await db.selectFrom('channels').select('name').where('id', '=', chat.channel_id).executeTakeFirst();
  const messages = await db
    .selectFrom('messages')
    .selectAll()
    .where('chat_id', '=', chat.id)
    .where('account_id', '=', q.accountId)
    .where('suppressed', '=', 0)
    .orderBy('id')
    .limit(5000)
    .execute();
  const agentIds = [...new Set(messages.map((m) => m.agent_id).filter((id): id is number => id !== null))];
  const agents = agentIds.length === 0 ? [] : await db.selectFrom('agents').select(['id', 'name']).where('id', 'in', agentIds).execute();
  const agentName = new Map(agents.map((a) => [a.id, a.name]));
  const lang = q.lang ?? 'en';
  const visitorName = q.visitorName ?? visitor?.name ?? (visitor ? say(lang, 'visitorNumbered', { number: visitor.number }) : say(lang, 'labelVisitor'));
  const lines: TranscriptLine[] = [];
  for (const m of messages) {
    if (m.internal && !q.withNotes) continue;
    const who = m.author === 'visitor' ? visitorName : m.author === 'agent' ? (agentName.get(m.agent_id ?? 0) ?? say(lang, 'agent')) : 'Parley';
    lines.push({ who: m.internal ? say(lang, 'privateNote', { who }) : who, at: clock(m.created_at, q.timezone), text: messageText(m) });
  }
  const contact = parseJson<ChatTranscript['contact']>(chat.contact_info_json, null);
  return { chat, visitor, channelName: channel?.name ?? '', contact, lines };
}
