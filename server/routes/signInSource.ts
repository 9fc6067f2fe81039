/**
 * Where a sign-in comes from, for its throttle (domain/auth/throttles.ts).
 * Normally the client address (request.ip). A request from an address that
 * TRUST_PROXY does not list but that carries X-Forwarded-For looks to come
 * through a proxy several clients share: then the throttle counts the client
 * the header's last address names (what the proxy appended), tagged with the
 * proxy's address, beside a per-e-mail count through that proxy, so one
 * client's failures do not block the others. The header is believed for
 * nothing else.
 */
import type { FastifyRequest } from 'fastify';

export interface SignInSource {
  ip: string;
  /** The shared proxy's address, when the request came through one. */
  via: string | null;
}

export function signInSource(request: FastifyRequest): SignInSource {
  const header = request.headers['x-forwarded-for'];
  const peer = request.socket.remoteAddress;
  if (header === undefined || peer === undefined || request.ip !== peer) return { ip: request.ip, via: null };
  const last = (Array.isArray(header) ? header.join(',') : header).split(',').pop()?.trim() ?? '';
  // Only something shaped like an address (bounded), never a free text from the client.
  if (!/^[0-9A-Fa-f:.]{2,45}$/.test(last)) return { ip: request.ip, via: null };
  return { ip: `${last} via ${peer}`, via: peer };
}
