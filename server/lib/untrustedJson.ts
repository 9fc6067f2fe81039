/**
 * JSON from outside (request bodies, chat-channel messages, receivers'
 * answers) is parsed here: nesting is limited to MAX_JSON_DEPTH levels,
 * checked by one linear scan of the text before JSON.parse, with no recursion.
 * So no later walk of the value (NUL stripping, validation, serialization),
 * recursive or not, can be driven into a stack overflow by the input.
 * The text is read as data, never as structure: keys `__proto__` and
 * `constructor` are dropped at every depth (parseJsonData), so they cannot
 * stand in for, or be merged into, what Parley reads.
 */
import { parseJsonData } from './jsonData.js';

/** Deepest nesting of arrays and objects accepted; real bodies and answers use fewer than ten. */
export const MAX_JSON_DEPTH = 64;

/** The text nests arrays/objects deeper than the limit. A SyntaxError, so whatever handles bad JSON handles it. */
export class JsonTooDeepError extends SyntaxError {
  constructor(readonly limit: number) {
    super(`JSON nested deeper than ${limit} levels`);
    this.name = 'JsonTooDeepError';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether `text` nests arrays/objects deeper than `limit` (brackets inside
 * strings do not count). Exact for well-formed JSON; for malformed text
 * JSON.parse refuses it anyway. Linear time, constant memory.
 */
export function jsonTooDeep(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/**
 * parseJsonData after the depth check (a leading BOM is ignored). Throws a
 * SyntaxError for malformed text and a JsonTooDeepError for too deep a text.
 */
export function parseUntrustedJson(text: string, limit: number = MAX_JSON_DEPTH): unknown {
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (jsonTooDeep(clean, limit)) throw new JsonTooDeepError(limit);
  return parseJsonData(clean);
}
