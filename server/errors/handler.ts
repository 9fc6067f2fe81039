/**
 * The one error handler: every failure leaves as `{error:{code,message}}` with
 * the registry's status. Unknown errors are logged with the request id and
 * answered 500 without internals; 503s (the database unavailable) are logged
 * through the outage throttle (unavailableLog.ts) instead.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './AppError.js';
import { errorRegistry, type ErrorCode } from './registry.js';
import { isDiskFull } from './diskFull.js';
import { isUnavailable, UnavailableLog } from './unavailableLog.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** One per app: every scope's error handler counts its 503s in it, and the workers and sockets their failures while the database is unavailable (one count per source). */
    unavailableLog: UnavailableLog;
  }
}

export interface ErrorBody {
  error: { code: string; message: string };
}

export function errorBody(code: ErrorCode, message?: string): ErrorBody {
  return { error: { code, message: message ?? errorRegistry[code].message } };
}

/** Maps anything thrown to a registry code and a sentence. */
export function classify(err: unknown): { code: ErrorCode; message: string; headers?: Record<string, string> } {
  if (err instanceof AppError) return { code: err.code, message: err.message, headers: err.headers };
  const fe = err as Partial<FastifyError> & { validation?: unknown[]; validationContext?: string };
  if (fe && Array.isArray(fe.validation)) {
    return { code: 'validation_failed', message: `Invalid request: ${fe.message ?? 'the body does not match the schema'}.` };
  }
  switch (fe?.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: 'invalid_json', message: `The request body is not valid JSON: ${fe.message}` };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'payload_too_large', message: errorRegistry.payload_too_large.message };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'unsupported_media_type', message: errorRegistry.unsupported_media_type.message };
  }
  // A full disk (ENOSPC from a file, SQLITE_FULL from the embedded database) is the operator's to fix, not a bug: 503, said plainly.
  if (isDiskFull(err)) return { code: 'storage_full', message: errorRegistry.storage_full.message };
  if (fe instanceof SyntaxError) return { code: 'invalid_json', message: `The request body is not valid JSON: ${fe.message}` };
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status === 413) return { code: 'payload_too_large', message: errorRegistry.payload_too_large.message };
  if (status === 415) return { code: 'unsupported_media_type', message: errorRegistry.unsupported_media_type.message };
  if (status === 429) return { code: 'too_many_requests', message: errorRegistry.too_many_requests.message };
  if (status === 404) return { code: 'not_found', message: errorRegistry.not_found.message };
  if (status >= 400 && status < 500) return { code: 'validation_failed', message: fe?.message ?? errorRegistry.validation_failed.message };
  // Here, not only in the handler below: scopes with their own handler (the chat channel) answer 503 too.
  // What counts as the database unavailable: isUnavailable (unavailableLog.ts), shared with the workers and sockets.
  if (status === 503 || isUnavailable(err)) return { code: 'service_unavailable', message: errorRegistry.service_unavailable.message };
  return { code: 'internal_error', message: errorRegistry.internal_error.message };
}

/**
 * Logs a request that answers a 5xx: a 503 (the store unavailable) at warn through
 * the app's outage throttle, anything else (a bug) at error with its stack.
 */
export function logServerError(request: FastifyRequest, err: unknown, code: ErrorCode, msg: string): void {
  if (code === 'service_unavailable') request.server.unavailableLog.failed(err, request.log);
  else if (code === 'storage_full') request.log.warn({ err, reqId: request.id }, 'disk full: nothing was stored');
  else request.log.error({ err, reqId: request.id }, msg);
}

export function registerErrorHandler(app: FastifyInstance): void {
  const unavailableLog = new UnavailableLog({ log: app.log });
  app.decorate('unavailableLog', unavailableLog);
  app.addHook('onClose', async () => unavailableLog.close());
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { code, message, headers } = classify(err);
    const status = errorRegistry[code].status;
    if (status >= 500) logServerError(request, err, code, 'request failed');
    if (headers) void reply.headers(headers);
    return reply.code(status).send(errorBody(code, message));
  });
  app.setNotFoundHandler((request, reply) => {
    return reply.code(404).send(errorBody('route_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`));
  });
}
