/**
 * The API's JSON body parser: like Fastify's (prototype-poisoning safe), but an
 * empty body with a JSON Content-Type reads as "no body" instead of an error,
 * since many clients send that for bodiless POSTs (accept, finish, ...), and
 * nesting deeper than MAX_JSON_DEPTH is refused (400 invalid_json) before
 * parsing, so nothing downstream walks an arbitrarily deep value.
 */
import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { JsonTooDeepError, jsonTooDeep, MAX_JSON_DEPTH } from './untrustedJson.js';

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
      if (jsonTooDeep(text, MAX_JSON_DEPTH)) throw new JsonTooDeepError(MAX_JSON_DEPTH);
      done(null, sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch (err) {
      done(new InvalidJsonBody((err as Error).message), undefined);
    }
  });
}
