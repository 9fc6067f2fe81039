/**
 * A route scope whose body is the file itself (uploads, an agent's photo):
 * any Content-Type is read as bytes up to `maxBytes`, and a body over it is
 * refused with `payload_too_large` in the person's words (the parent error
 * handler answers; only the sentence is made here).
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/AppError.js';
import { classify } from '../errors/handler.js';

export function readBodyAsBytes(scope: FastifyInstance, maxBytes: number, tooLarge: string): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, (_req, body, done) => done(null, body));
  scope.setErrorHandler((err) => {
    if (classify(err).code === 'payload_too_large') throw new AppError('payload_too_large', tooLarge);
    throw err;
  });
}
