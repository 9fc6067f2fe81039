/** JSON read as data (#17 item 12): `__proto__` and `constructor` keys dropped at every depth, by every parser of outside or stored JSON. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { parseJson } from './json.js';
import { registerJsonBodyParser } from './jsonBody.js';
import { parseJsonData } from './jsonData.js';
import { parseUntrustedJson } from './untrustedJson.js';

const HOSTILE =
  '{"a":1,"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},' +
  '"b":[{"constructor":"x","c":2},{"\\u005f_proto__":{"d":3},"\\u0063onstructor":4,"e":5}],"f":{"g":{"constructor":{"h":6}}}}';
const CLEAN = { a: 1, b: [{ c: 2 }, { e: 5 }], f: { g: {} } };

describe('JSON read as data', () => {
  it.each([
    ['parseJsonData', (text: string) => parseJsonData(text)],
    ['parseUntrustedJson (chat channel, answers to deliveries)', (text: string) => parseUntrustedJson(text)],
    ['parseJson (stored JSON columns)', (text: string) => parseJson<unknown>(text, null)],
  ])('%s drops __proto__ and constructor keys at every depth, escaped or not', (_name, parse) => {
    const value = parse(HOSTILE);
    expect(value).toStrictEqual(CLEAN);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves values alone: only keys are dropped, and text without such keys parses as JSON.parse does', () => {
    const text = '{"type":"constructor","text":"__proto__ prototype","n":[1,"\\u00e9"]}';
    expect(parseJsonData(text)).toStrictEqual(JSON.parse(text));
    expect(parseJsonData('[1,2,{"x":null}]')).toStrictEqual([1, 2, { x: null }]);
    expect(() => parseJsonData('{"a":')).toThrow(SyntaxError);
  });

  it('the API body parser (agent API, widget API) drops them too', async () => {
    const app = Fastify();
    registerJsonBodyParser(app);
    app.post('/echo', async (request) => ({ body: request.body ?? null }));
    try {
      const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: HOSTILE });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ body: unknown }>().body).toStrictEqual(CLEAN);
      const constructorOnly = await app.inject({
        method: 'POST',
        url: '/echo',
        headers: { 'content-type': 'application/json' },
        payload: '{"constructor":"x"}',
      });
      expect(constructorOnly.json<{ body: unknown }>().body).toStrictEqual({});
      expect((await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":' })).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});
