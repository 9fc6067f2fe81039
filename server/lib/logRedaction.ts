/**
 * What the log says of a request: Fastify's request line (method, URL, host,
 * client address), with the secrets some URLs carry — the stream's and the
 * visitor socket's `?token=`, the chat channel's random string in
 * `/wh/<random>/<id>` — replaced by [redacted]. A query name is compared as
 * the app reads it, or more loosely: percent-decoded and `+` as a space
 * (`?%74oken=` is `?token=` to the query parser), NULs removed (app.ts strips
 * them from every query key before a route reads it, so `?token%00=` signs
 * in), and, to be safe, other control characters and surrounding spaces
 * dropped and case ignored. Headers and bodies are never logged.
 *
 * One line per request (logRequests): `request completed` at info once the
 * answer has gone, with the request id, the method, the redacted URL, the
 * client's address, the status and the time taken; its arrival is logged
 * too, at debug only.
 */
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';

const SECRET_NAMES = new Set(['token', 'access_token']);

/**
 * A query name read at least as loosely as the app reads it: each ASCII escape decoded, then NULs
 * and every other control character removed, spaces trimmed, lower case. The secret names are
 * ASCII, so an escape of a byte beyond ASCII can never make one and stays as it is (so does a
 * malformed escape: the query parser then keeps the whole name raw, never a secret name).
 */
function looseName(raw: string): string {
  return (
    raw
      .replace(/\+/g, ' ')
      .replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .trim()
      .toLowerCase()
  );
}

export function redactUrl(url: string): string {
  const path = url.replace(/^\/wh\/[^/?#]*/, '/wh/[redacted]');
  const q = path.indexOf('?');
  if (q < 0) return path;
  const hash = path.indexOf('#', q);
  const query = hash < 0 ? path.slice(q + 1) : path.slice(q + 1, hash);
  const rest = hash < 0 ? '' : path.slice(hash);
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    return SECRET_NAMES.has(looseName(name)) ? `${name}=[redacted]` : part;
  });
  return `${path.slice(0, q + 1)}${parts.join('&')}${rest}`;
}

function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The logger options with the redacting request serializer (booleans and `undefined` pass as they are: `true` gets it too). */
export function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === false || logger === undefined) return logger;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, req: serializeRequest } };
}

/** The request's one line at info when answered (its arrival at debug), instead of Fastify's two at info. */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    request.log.debug({ req: request }, 'incoming request');
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime }, 'request completed');
  });
}
