/**
 * What the log says of a request: Fastify's request line (method, URL, host,
 * client address), with the secrets some URLs carry — the stream's and the
 * visitor socket's `?token=`, the chat channel's random string in
 * `/wh/<random>/<id>` — replaced by [redacted]. Headers and bodies are never
 * logged.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|access_token)=)[^&#]*/gi, '$1[redacted]').replace(/^\/wh\/[^/?#]*/, '/wh/[redacted]');
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
