/**
 * The inbox state and its reducer (pure, no I/O): chats by id, the messages of
 * the conversations opened, a preview line per chat, who is typing, unread
 * counts (a list row brings the server's preview and this agent's unread
 * count, so both survive a reload), who each waiting chat is offered to (the
 * API's `offer`, moved on by chat.offered frames). API answers and stream frames both land here; applying one twice,
 * or an older copy after a newer one, changes nothing (messages are merged by
 * id, chats and their offers by their sequence number).
 */
import { t } from './i18n';
import type { ChatDto, ChatOfferDto, MessageDto } from '../../../protocol/agent';

/**
 * A chat's last line as the state keeps it: the message's own text, or what
 * kind of message it was, put in words only when drawn (previewText), so the
 * lines follow the agent's language when it changes.
 */
export type PreviewLine = string | { type: string; file_name?: string };

export interface InboxState {
  chats: Record<number, ChatDto>;
  messages: Record<number, MessageDto[]>;
  preview: Record<number, PreviewLine>;
  /** chat id → time (ms) the visitor's typing indicator expires. */
  typing: Record<number, number>;
  unread: Record<number, number>;
  /**
   * chat id → the newest message id the preview and unread count already
   * account for (the server's list row, or a frame): a row read before a
   * frame never undoes it, a frame the row already counted is not counted twice.
   */
  counted: Record<number, number>;
}

export type InboxAction =
  | { type: 'reset' }
  /** The stream said our state is stale (events we missed are gone): drop every chat but the one on screen; the lists load again. */
  | { type: 'stale'; keep: number | null }
  | { type: 'chats'; chats: ChatDto[] }
  /** The channels this agent sees now (a channel.changed frame): the chats of any other channel go. */
  | { type: 'channels'; visible: number[] }
  | { type: 'chat'; chat: ChatDto }
  | { type: 'message'; message: MessageDto; unread: boolean }
  | { type: 'typing'; chatId: number; until: number | null }
  /** The chat is read: on this device (nothing left unread), or on another device of this agent (a chat.read frame: what it left unread). */
  | { type: 'read'; chatId: number; unread?: number }
  /** A chat.offered frame (its seq orders it against the chat's other copies). */
  | { type: 'offered'; chatId: number; offer: ChatOfferDto; seq: number | undefined }
  /** This agent declined the offer `attempt`: nobody's turn until the next chat.offered says whose. */
  | { type: 'declined'; chatId: number; attempt: number }
  /** The visitor was erased (a visitor.erased frame): its chats leave every list. */
  | { type: 'erased'; visitorId: number };

export const emptyInbox: InboxState = { chats: {}, messages: {}, preview: {}, typing: {}, unread: {}, counted: {} };

const FINAL = new Set(['delivered', 'failed']);

/** Which copy of the same message wins: a final delivery status is never undone by an older pending copy. */
function newer(existing: MessageDto, incoming: MessageDto): MessageDto {
  const before = existing.delivery?.status;
  const after = incoming.delivery?.status;
  if (before && FINAL.has(before) && after === 'pending') return existing;
  return incoming;
}

export function mergeMessages(current: MessageDto[] | undefined, incoming: MessageDto[]): MessageDto[] {
  const byId = new Map<number, MessageDto>();
  for (const m of current ?? []) byId.set(m.id, m);
  for (const m of incoming) {
    const had = byId.get(m.id);
    byId.set(m.id, had ? newer(had, m) : m);
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

export function previewOf(m: MessageDto): PreviewLine | null {
  if (m.internal) return null;
  if (m.text) return m.text;
  return { type: m.type, file_name: m.file_name };
}

/** A preview line in words, in the app's language: "📍 Location", "📎 invoice.pdf", "[contact]". */
export function previewText(line: PreviewLine): string {
  if (typeof line === 'string') return line;
  if (line.type === 'location') return t('workspace.preview.location');
  if (line.file_name) return `📎 ${line.file_name}`;
  return `[${line.type}]`;
}

/** The chat on screen stays (its conversation is fetched again), so the view and a draft survive. */
function keepOnly(state: InboxState, id: number | null): InboxState {
  const pick = <T>(record: Record<number, T>): Record<number, T> => (id !== null && id in record ? { [id]: record[id] } : {});
  return {
    chats: pick(state.chats),
    messages: pick(state.messages),
    preview: pick(state.preview),
    typing: {},
    unread: pick(state.unread),
    counted: pick(state.counted),
  };
}

/** Only the chats of the `visible` channels, with their messages, previews, typing and counts. */
function keepChannels(state: InboxState, visible: number[]): InboxState {
  const shown = new Set(visible);
  const gone = new Set(Object.values(state.chats).flatMap((c) => (shown.has(c.channel_id) ? [] : [c.id])));
  if (gone.size === 0) return state;
  const pick = <T>(record: Record<number, T>): Record<number, T> => Object.fromEntries(Object.entries(record).filter(([id]) => !gone.has(Number(id))));
  return {
    chats: pick(state.chats),
    messages: pick(state.messages),
    preview: pick(state.preview),
    typing: pick(state.typing),
    unread: pick(state.unread),
    counted: pick(state.counted),
  };
}

/** The state without the chats of one visitor (erased). */
function withoutVisitor(state: InboxState, visitorId: number): InboxState {
  const gone = Object.values(state.chats)
    .filter((c) => c.visitor.id === visitorId)
    .map((c) => c.id);
  if (gone.length === 0) return state;
  const drop = <T>(record: Record<number, T>): Record<number, T> => gone.reduce((r, id) => withoutKey(r, id), record);
  return {
    chats: drop(state.chats),
    messages: drop(state.messages),
    preview: drop(state.preview),
    typing: drop(state.typing),
    unread: drop(state.unread),
    counted: drop(state.counted),
  };
}

function withoutKey<T>(record: Record<number, T>, key: number): Record<number, T> {
  if (!(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/**
 * A chat as a chat.created / chat.updated frame carries it, stamped with the
 * frame's sequence number. The chat inside the event was read before its own
 * event was numbered, so it carries the previous number; without the stamp,
 * an API answer read in between (the Reply's, say) would tie with it and, if
 * it arrived later, put the older state back (a chat_accepted answer applied
 * 50 ms after the accept vanished from the panel that way).
 */
export function chatOfFrame(chat: ChatDto, frameSeq: number | undefined): ChatDto {
  return typeof frameSeq === 'number' && frameSeq > chat.seq ? { ...chat, seq: frameSeq } : chat;
}

/** A list row's last message and unread count (the server's, for this agent), unless a newer frame was applied already. */
function withRowSummary(state: InboxState, chat: ChatDto): InboxState {
  if (chat.last_message === undefined && chat.unread_count === undefined) return state;
  const upTo = chat.last_message?.id ?? 0;
  if ((state.counted[chat.id] ?? 0) > upTo) return state;
  const line = chat.last_message ? previewOf(chat.last_message) : null;
  const unread = chat.unread_count ?? 0;
  return {
    ...state,
    preview: line ? { ...state.preview, [chat.id]: line } : state.preview,
    unread: unread > 0 ? { ...state.unread, [chat.id]: unread } : withoutKey(state.unread, chat.id),
    counted: { ...state.counted, [chat.id]: upTo },
  };
}

/**
 * The offer a chat copy leaves the chat under: none once it stops waiting; the
 * copy's own when it says (API answers); else the one known (frames' chats
 * leave `offer` out: chat.offered frames move it).
 */
function offerAfter(existing: ChatDto | undefined, incoming: ChatDto): ChatOfferDto | null {
  if (incoming.status !== 'pending') return null;
  if (incoming.offer !== undefined) return incoming.offer;
  return existing?.offer ?? null;
}

function upsertChat(state: InboxState, chat: ChatDto): InboxState {
  const { messages, last_message: _last, unread_count: _unread, ...rest } = chat;
  const existing = state.chats[chat.id];
  const summary: ChatDto = { ...rest, offer: offerAfter(existing, rest) };
  const keep = existing && existing.seq > summary.seq;
  let next: InboxState = keep ? state : { ...state, chats: { ...state.chats, [chat.id]: summary } };
  next = withRowSummary(next, chat);
  if (messages) {
    const merged = mergeMessages(state.messages[chat.id], messages);
    next = { ...next, messages: { ...next.messages, [chat.id]: merged } };
    const last = [...merged]
      .reverse()
      .map(previewOf)
      .find((p) => p !== null);
    if (last) next = { ...next, preview: { ...next.preview, [chat.id]: last } };
  }
  return next;
}

export function inboxReducer(state: InboxState, action: InboxAction): InboxState {
  switch (action.type) {
    case 'reset':
      return emptyInbox;
    case 'stale':
      return keepOnly(state, action.keep);
    case 'erased':
      return withoutVisitor(state, action.visitorId);
    case 'chats':
      return action.chats.reduce(upsertChat, state);
    case 'channels':
      return keepChannels(state, action.visible);
    case 'chat':
      return upsertChat(state, action.chat);
    case 'message': {
      const m = action.message;
      const had = state.messages[m.chat_id];
      let next: InboxState = state;
      // Messages of a conversation not opened yet are fetched with it; only the preview is kept.
      if (had) next = { ...next, messages: { ...next.messages, [m.chat_id]: mergeMessages(had, [m]) } };
      const known = (had?.some((x) => x.id === m.id) ?? false) || m.id <= (state.counted[m.chat_id] ?? 0);
      const line = previewOf(m);
      if (line && !known) next = { ...next, preview: { ...next.preview, [m.chat_id]: line } };
      if (m.author === 'visitor' && !known) {
        next = { ...next, typing: withoutKey(next.typing, m.chat_id) };
        if (action.unread) next = { ...next, unread: { ...next.unread, [m.chat_id]: (next.unread[m.chat_id] ?? 0) + 1 } };
      }
      if (!known) next = { ...next, counted: { ...next.counted, [m.chat_id]: Math.max(m.id, next.counted[m.chat_id] ?? 0) } };
      return next;
    }
    case 'typing':
      return {
        ...state,
        typing: action.until === null ? withoutKey(state.typing, action.chatId) : { ...state.typing, [action.chatId]: action.until },
      };
    case 'read': {
      const left = action.unread ?? 0;
      return { ...state, unread: left > 0 ? { ...state.unread, [action.chatId]: left } : withoutKey(state.unread, action.chatId) };
    }
    case 'offered': {
      const chat = state.chats[action.chatId];
      // An unknown chat is fetched (its answer carries the offer); a copy newer than the frame already knows.
      if (!chat || (action.seq !== undefined && action.seq <= chat.seq) || chat.status !== 'pending') return state;
      const seq = action.seq ?? chat.seq;
      return { ...state, chats: { ...state.chats, [chat.id]: { ...chat, offer: action.offer, seq } } };
    }
    case 'declined': {
      const chat = state.chats[action.chatId];
      if (chat?.offer?.attempt !== action.attempt) return state;
      return { ...state, chats: { ...state.chats, [chat.id]: { ...chat, offer: null } } };
    }
  }
}

export function chatsWithStatus(state: InboxState, status: ChatDto['status']): ChatDto[] {
  return Object.values(state.chats)
    .filter((c) => c.status === status)
    .sort((a, b) => b.id - a.id);
}

export function totalUnread(state: InboxState): number {
  return Object.values(state.unread).reduce((a, b) => a + b, 0);
}

/** What waits for an agent: waiting chats, plus unread visitor messages of the other chats (a waiting chat counts once). */
export function attentionCount(state: InboxState): number {
  const pending = chatsWithStatus(state, 'pending');
  const unread = Object.entries(state.unread)
    .filter(([id]) => state.chats[Number(id)]?.status !== 'pending')
    .reduce((sum, [, n]) => sum + n, 0);
  return pending.length + unread;
}
