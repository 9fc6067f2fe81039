/**
 * The rows baseline's request: a chat-channel body read the straightforward
 * way (JSON, sender.id required, a text message), the rows it writes, and the
 * message as the JSON its outbox event carries. Shared by the SQLite and the
 * PostgreSQL twin (bench/lib/rowsSqlite.ts, bench/lib/rowsPostgres.ts).
 */

export interface RowsInput {
  channelId: number;
  senderId: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  url: string | null;
  /** message.id of the customer's system. */
  externalId: string | null;
  text: string;
  now: number;
}

/** One request's rows, in one transaction. */
export interface RowsStore {
  /** Resolves, once committed, to the outbox event's payload (what the server sends its sockets). */
  store(input: RowsInput): Promise<string>;
  close(): Promise<void>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optional = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The input of a request, or null for a body the endpoint answers 400. */
export function readInput(raw: string, channelId: number, now: number): RowsInput | null {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isObject(body) || !isObject(body.sender) || !isObject(body.message)) return null;
  const { sender, message } = body;
  const id = typeof sender.id === 'number' ? String(sender.id) : sender.id;
  if (typeof id !== 'string' || id === '' || message.type !== 'text' || typeof message.text !== 'string') return null;
  return {
    channelId,
    senderId: id,
    name: optional(sender.name),
    email: optional(sender.email),
    phone: optional(sender.phone),
    url: optional(sender.url),
    externalId: optional(message.id),
    text: message.text.slice(0, 1000),
    now,
  };
}

/** The message as its outbox event carries it. */
export function messageJson(input: RowsInput, ids: { message: number; chat: number; visitor: number }): string {
  return JSON.stringify({
    type: 'message.created',
    message: {
      id: ids.message,
      chat_id: ids.chat,
      visitor_id: ids.visitor,
      sender_id: input.senderId,
      external_id: input.externalId,
      type: 'text',
      text: input.text,
      created_at: input.now,
    },
  });
}
