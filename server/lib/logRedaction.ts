/**
 * What the log says of a request: Fastify's request line (method, URL, host,
 * client address), with the secrets some URLs carry — the stream's and the
 * visitor socket's `?token=`, the chat channel's random string in
 * `/wh/<random>/<id>` — replaced by [redacted]. Query names are compared
 * decoded (`?%74oken=` is `?token=` to the query parser, so it is redacted
 * too). Headers and bodies are never logged.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

const SECRET_NAMES = new Set(['token', 'access_token']);

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).trim().toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
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
    return SECRET_NAMES.has(decodedName(name)) ? `${name}=[redacted]` : part;
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
