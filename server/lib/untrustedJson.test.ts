/** The depth-limited JSON parse and the iterative NUL stripping: exact depth, strings ignored, linear, no recursion. */
import { describe, expect, it } from 'vitest';
import { stripNul } from './stripNul.js';
import { JsonTooDeepError, jsonTooDeep, MAX_JSON_DEPTH, parseUntrustedJson } from './untrustedJson.js';

const arrays = (n: number): string => '['.repeat(n) + ']'.repeat(n);

describe('parseUntrustedJson', () => {
  it('accepts exactly MAX_JSON_DEPTH levels and refuses one more', () => {
    expect(parseUntrustedJson(arrays(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    expect(() => parseUntrustedJson(arrays(MAX_JSON_DEPTH + 1))).toThrow(JsonTooDeepError);
    expect(() => parseUntrustedJson(arrays(MAX_JSON_DEPTH + 1))).toThrow('JSON nested deeper than 64 levels');
    expect(jsonTooDeep('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(jsonTooDeep('{"a":[{"b":[1]}]}', 3)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ s: '[[[[{{{{"\\"[[[[', t: ['\\', '"]]]]'] });
    expect(jsonTooDeep(text, 2)).toBe(false);
    expect(parseUntrustedJson(text, 2)).toEqual(JSON.parse(text));
  });

  it('a refusal is a SyntaxError; malformed text still throws SyntaxError; a BOM is ignored', () => {
    expect(() => parseUntrustedJson(arrays(100))).toThrow(SyntaxError);
    expect(() => parseUntrustedJson('{"a":')).toThrow(SyntaxError);
    expect(parseUntrustedJson('\uFEFF{"a":1}')).toEqual({ a: 1 });
  });

  it('a million levels are refused without recursion, in linear time', () => {
    const started = Date.now();
    expect(() => parseUntrustedJson(arrays(1_000_000))).toThrow(JsonTooDeepError);
    expect(jsonTooDeep('"' + 'x'.repeat(2_000_000) + '"')).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('stripNul', () => {
  it('cleans strings and keys at every level, keeps other values and shapes', () => {
    expect(stripNul({ 'a\u0000b': ['x\u0000', 1, null, true, { c: 'd\u0000' }], e: 2.5 })).toEqual({ ab: ['x', 1, null, true, { c: 'd' }], e: 2.5 });
    expect(stripNul('a\u0000')).toBe('a');
    expect(stripNul(7)).toBe(7);
    const buf = Buffer.from('a\u0000');
    expect(stripNul(buf)).toBe(buf);
  });

  it('drops a "__proto__" key instead of replacing the prototype', () => {
    const out = stripNul(JSON.parse('{"__proto__":{"polluted":1},"a":1}')) as Record<string, unknown>;
    expect(out).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.polluted).toBeUndefined();
  });

  it('walks a value nested 100,000 levels deep without overflowing the stack', () => {
    const deep = JSON.parse(arrays(100_000)) as unknown;
    expect(() => stripNul(deep)).not.toThrow();
    let v = stripNul(deep) as unknown[];
    let depth = 1;
    while (v.length > 0) {
      v = v[0] as unknown[];
      depth++;
    }
    expect(depth).toBe(100_000);
  });
});
