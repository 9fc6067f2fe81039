/**
 * The API's JSON body parser (agent API and the widget's visitor API): an
 * empty body with a JSON Content-Type reads as "no body" instead of an error,
 * since many clients send that for bodiless POSTs (accept, finish, ...);
 * otherwise the text is read by parseUntrustedJson, as every JSON from outside
 * is: nesting deeper than MAX_JSON_DEPTH refused (400 invalid_json) before
 * parsing, so nothing downstream walks an arbitrarily deep value, and keys
 * `__proto__` and `constructor` dropped at every depth (data, never structure).
 */
import type { FastifyInstance } from 'fastify';
import { parseUntrustedJson } from './untrustedJson.js';

class InvalidJsonBody extends Error {
  readonly statusCode = 400;
  readonly code = 'FST_ERR_CTP_INVALID_JSON_BODY';
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString();
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseUntrustedJson(text));
    } catch (err) {
      done(new InvalidJsonBody((err as Error).message), undefined);
    }
  });
}
