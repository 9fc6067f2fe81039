/** The frame reads the server's answers and socket frames as data (#17 item 12). */
import { describe, expect, it } from 'vitest';
import { parseData } from './json';

describe('parseData (widget frame: HTTP answers, socket frames)', () => {
  it('drops __proto__ and constructor keys at every depth, escaped or not', () => {
    const value = parseData(
      '{"type":"message.created","__proto__":{"type":"reset"},"data":{"text":"hi","constructor":{"prototype":{"x":1}},"\\u005f_proto__":{"author":"agent"}}}',
    );
    expect(value).toStrictEqual({ type: 'message.created', data: { text: 'hi' } });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('keeps such words as values', () => {
    expect(parseData('{"text":"__proto__","type":"constructor"}')).toStrictEqual({ text: '__proto__', type: 'constructor' });
  });
});
