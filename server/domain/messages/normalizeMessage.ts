/**
 * The spec's message object (text, typein/typeout, multimedia, location),
 * validated and normalized once for every direction: chat-channel inbound,
 * agent replies, widget messages.
 *
 * Required rules refuse the message (InvalidMessage); optional fields with a
 * bad value are dropped and the message is kept (docs/CHAT-CHANNEL.md). Texts are cut
 * at 1000 characters (code points, so no emoji is split).
 */
import type { MessagesTable } from '../../db/schema.js';
import { singleLine } from '../../lib/singleLine.js';

export const MEDIA_TYPES = ['video', 'audio', 'voice', 'photo', 'sticker', 'document'] as const;
export const MESSAGE_TYPES = ['text', ...MEDIA_TYPES, 'location'] as const;
export const TYPING_TYPES = ['typein', 'typeout'] as const;

export type MessageType = (typeof MESSAGE_TYPES)[number];
export const TEXT_LIMIT = 1000;

/** The stored columns a message carries as they are (docs/CHAT-CHANNEL.md). */
type StoredFields = Pick<MessagesTable, 'text' | 'file' | 'file_name' | 'file_size' | 'thumb' | 'latitude' | 'longitude'>;

export interface NormalizedMessage extends StoredFields {
  type: MessageType;
  /** emoji, duration, width, height, performer, title: only those present and valid. */
  extra: Record<string, string | number>;
  /** message.id of the sender's system, as a string. */
  external_id: string | null;
}

export type NormalizedInput = { kind: 'typing'; typing: boolean } | { kind: 'message'; message: NormalizedMessage };

export class InvalidMessage extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isHttpUrl(v: unknown): v is string {
  if (typeof v !== 'string' || v.length > 2048) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

export function cutText(text: string, limit = TEXT_LIMIT): string {
  const points = Array.from(text);
  return points.length > limit ? points.slice(0, limit).join('') : text;
}

/** A string, cut to `max` characters; anything else → null. */
export function optionalString(v: unknown, max = 255): string | null {
  if (typeof v !== 'string') return null;
  const trimmed = v.trim();
  return trimmed === '' ? null : cutText(trimmed, max);
}

/** optionalString for a one-line field (a name, an address, a phone, a title): control characters and line breaks become spaces first (lib/singleLine.ts). */
export function optionalLine(v: unknown, max = 255): string | null {
  return typeof v === 'string' ? optionalString(singleLine(v), max) : null;
}

function positiveInt(v: unknown): number | null {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

function coordinate(v: unknown, limit: number, name: string): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new InvalidMessage(`message.${name} must be a number for a location message.`);
  if (Math.abs(n) > limit) throw new InvalidMessage(`message.${name} must be between -${limit} and ${limit}.`);
  return n;
}

export function normalizeMessage(raw: unknown): NormalizedInput {
  if (!isObject(raw)) throw new InvalidMessage('message must be an object with a type.');
  const type = raw.type;
  if (typeof type !== 'string' || type === '') throw new InvalidMessage('message.type is required.');
  if ((TYPING_TYPES as readonly string[]).includes(type)) return { kind: 'typing', typing: type === 'typein' };
  if (!(MESSAGE_TYPES as readonly string[]).includes(type)) {
    throw new InvalidMessage(`message.type "${cutText(type, 40)}" is unknown; use one of ${[...MESSAGE_TYPES, ...TYPING_TYPES].join(', ')}.`);
  }
  const external =
    typeof raw.id === 'string' && raw.id.trim() !== ''
      ? cutText(raw.id.trim(), 200)
      : typeof raw.id === 'number' && Number.isFinite(raw.id)
        ? String(raw.id)
        : null;
  const text = typeof raw.text === 'string' && raw.text.trim() !== '' ? cutText(raw.text) : null;
  const msg: NormalizedMessage = {
    type: type as MessageType,
    text,
    file: null,
    file_name: null,
    file_size: null,
    thumb: null,
    latitude: null,
    longitude: null,
    extra: {},
    external_id: external,
  };

  if (type === 'text') {
    if (text === null) throw new InvalidMessage('message.text is required for a text message.');
    return { kind: 'message', message: msg };
  }
  if (type === 'location') {
    msg.latitude = coordinate(raw.latitude, 90, 'latitude');
    msg.longitude = coordinate(raw.longitude, 180, 'longitude');
    return { kind: 'message', message: msg };
  }
  if (!isHttpUrl(raw.file)) throw new InvalidMessage(`message.file must be an http(s) URL for a ${type} message.`);
  msg.file = raw.file;
  msg.file_name = optionalLine(raw.file_name, 255);
  msg.file_size = positiveInt(raw.file_size);
  msg.thumb = isHttpUrl(raw.thumb) ? raw.thumb : null;
  const emoji = optionalString(raw.emoji, 16);
  if (emoji) msg.extra.emoji = emoji;
  for (const key of ['duration', 'width', 'height'] as const) {
    const n = positiveInt(raw[key]);
    if (n !== null) msg.extra[key] = n;
  }
  for (const key of ['performer', 'title'] as const) {
    const s = optionalLine(raw[key], 255);
    if (s) msg.extra[key] = s;
  }
  return { kind: 'message', message: msg };
}
