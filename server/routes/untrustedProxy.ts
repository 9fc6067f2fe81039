/**
 * Says when Parley looks to be behind a proxy it does not trust (#31 item
 * 14): without TRUST_PROXY every client behind a reverse proxy has the
 * proxy's address, so per-address limits (sign-in throttling above all)
 * count them all together. At start, with TRUST_PROXY unset, one line says
 * that X-Forwarded-For is ignored; then the first request from each address
 * that carries X-Forwarded-For without being a listed proxy logs a warning
 * naming it and the setting to change (once per address, at most
 * MAX_WARNED addresses, so a client sending the header cannot flood the log).
 * The addresses seen, with when and how often, are kept for Admin → System
 * (GET /api/v1/system, routes/api/v1/system/): what this instance saw since
 * it started.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

const MAX_WARNED = 100;

/** An address that sent X-Forwarded-For without being listed in TRUST_PROXY. */
export interface UntrustedProxy {
  address: string;
  firstSeenAt: number;
  lastSeenAt: number;
  requests: number;
}

const seenBy = new WeakMap<Pick<AppContext, 'config'>, Map<string, UntrustedProxy>>();

/** The untrusted proxies this instance saw, most requests first. */
export function untrustedProxies(ctx: Pick<AppContext, 'config'>): UntrustedProxy[] {
  return [...(seenBy.get(ctx)?.values() ?? [])].map((p) => ({ ...p })).sort((a, b) => b.requests - a.requests || a.address.localeCompare(b.address));
}

export function watchUntrustedProxies(app: FastifyInstance, ctx: Pick<AppContext, 'config' | 'log'>): void {
  if (ctx.config.trustProxy.length === 0) {
    ctx.log.info(
      'TRUST_PROXY is unset: X-Forwarded-For is ignored and every client has the address of its connection; behind a reverse proxy, list the proxy in TRUST_PROXY (docs/SECURITY.md, "Client addresses and proxies")',
    );
  }
  const warned = new Map<string, UntrustedProxy>();
  seenBy.set(ctx, warned);
  app.addHook('onRequest', async (request) => {
    if (request.headers['x-forwarded-for'] === undefined) return;
    const peer = request.socket.remoteAddress;
    // request.ip differs from the connection's address only when a listed proxy's header was believed.
    if (peer === undefined || request.ip !== peer) return;
    const now = Date.now();
    const known = warned.get(peer);
    if (known) {
      known.lastSeenAt = now;
      known.requests += 1;
      return;
    }
    if (warned.size >= MAX_WARNED) return;
    warned.set(peer, { address: peer, firstSeenAt: now, lastSeenAt: now, requests: 1 });
    ctx.log.warn(
      { proxy: peer },
      `requests from ${peer} carry X-Forwarded-For, but TRUST_PROXY does not list ${peer}: the header is ignored, so every client behind that proxy shares its address and its sign-in limits; list it in TRUST_PROXY if it is your reverse proxy`,
    );
  });
}
