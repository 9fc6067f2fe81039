/**
 * The chat channel's inbound body (spec A "Inbound message"): sender + message.
 * Required rules refuse the whole request; optional sender fields with a bad
 * value are dropped (a photo that is not http(s), a name that is not a string); sender.url is
 * kept as text (the agent app links it only when it is http(s)).
 */
import { AppError } from '../../errors/AppError.js';
import { stripNul } from '../../lib/stripNul.js';
import { JsonTooDeepError, parseUntrustedJson } from '../../lib/untrustedJson.js';
import { InvalidMessage, isHttpUrl, normalizeMessage, optionalLine, type NormalizedInput } from '../messages/normalizeMessage.js';

export interface InboundSender {
  /**
   * sender.id as a string, exactly as sent (a number as its decimal digits):
   * the key of the visitor, matched exactly, so "  42 " and "42" are two
   * visitors and each gets its own form back as recipient.id.
   */
  id: string;
  /** Whether sender.id was a JSON number, so recipient.id returns it with its type. */
  idIsNumber: boolean;
  name: string | null;
  phone: string | null;
  email: string | null;
  photo: string | null;
  url: string | null;
  invite: string | null;
}

export type InboundRequest = NormalizedInput & { sender: InboundSender };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses the raw request text (any Content-Type) into an inbound request, or throws a 400 AppError. */
export function parseInbound(rawBody: unknown): InboundRequest {
  let body: unknown = rawBody;
  if (typeof rawBody === 'string' || Buffer.isBuffer(rawBody)) {
    const text = rawBody.toString();
    if (text.trim() === '') throw new AppError('invalid_json', 'The request body is empty; send the message as a JSON object.');
    try {
      body = stripNul(parseUntrustedJson(text));
    } catch (err) {
      if (err instanceof JsonTooDeepError)
        throw new AppError('invalid_json', `The request body is not valid JSON: it is nested deeper than ${err.limit} levels.`);
      throw new AppError('invalid_json', 'The request body is not valid JSON.');
    }
  }
  if (!isObject(body)) throw new AppError('invalid_message', 'The request body must be a JSON object with sender and message.');
  const sender = parseSender(body.sender);
  try {
    return { ...normalizeMessage(body.message), sender };
  } catch (err) {
    if (err instanceof InvalidMessage) throw new AppError('invalid_message', err.message);
    throw err;
  }
}

function parseSender(raw: unknown): InboundSender {
  if (!isObject(raw)) throw new AppError('missing_sender_id', 'sender is required and must be an object with an id.');
  const id = raw.id;
  let key: string | null = null;
  // Not trimmed: recipient.id must be what the customer sent. Only blank ids count as empty (spec: "If empty or absent").
  if (typeof id === 'string' && id.trim() !== '') key = id;
  else if (typeof id === 'number' && Number.isSafeInteger(id)) key = String(id);
  if (key === null) throw new AppError('missing_sender_id', 'sender.id is required (a non-empty string or an integer); the message was not stored.');
  if (key.length > 255) throw new AppError('invalid_message', 'sender.id is longer than 255 characters.');
  return {
    id: key,
    idIsNumber: typeof id === 'number',
    name: optionalLine(raw.name, 255),
    phone: optionalLine(raw.phone, 64),
    email: optionalLine(raw.email, 320),
    photo: isHttpUrl(raw.photo) ? raw.photo : null,
    // Kept as text whatever it is (a mobile app sends 'support.ua mobile'); shown as a link only when it is http(s).
    url: optionalLine(raw.url, 2048),
    invite: optionalLine(raw.invite, 1000),
  };
}
