/**
 * Says when Parley looks to be behind a proxy it does not trust (#31 item
 * 14): without TRUST_PROXY every client behind a reverse proxy has the
 * proxy's address, so per-address limits (sign-in throttling above all)
 * count them all together. At start, with TRUST_PROXY unset, one line says
 * that X-Forwarded-For is ignored; then the first request from each address
 * that carries X-Forwarded-For without being a listed proxy logs a warning
 * naming it and the setting to change (once per address, at most
 * MAX_WARNED addresses, so a client sending the header cannot flood the log).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

const MAX_WARNED = 100;

export function watchUntrustedProxies(app: FastifyInstance, ctx: Pick<AppContext, 'config' | 'log'>): void {
  if (ctx.config.trustProxy.length === 0) {
    ctx.log.info(
      'TRUST_PROXY is unset: X-Forwarded-For is ignored and every client has the address of its connection; behind a reverse proxy, list the proxy in TRUST_PROXY (docs/SECURITY.md, "Client addresses and proxies")',
    );
  }
  const warned = new Set<string>();
  app.addHook('onRequest', async (request) => {
    if (request.headers['x-forwarded-for'] === undefined) return;
    const peer = request.socket.remoteAddress;
    // request.ip differs from the connection's address only when a listed proxy's header was believed.
    if (peer === undefined || request.ip !== peer || warned.has(peer) || warned.size >= MAX_WARNED) return;
    warned.add(peer);
    ctx.log.warn(
      { proxy: peer },
      `requests from ${peer} carry X-Forwarded-For, but TRUST_PROXY does not list ${peer}: the header is ignored, so every client behind that proxy shares its address and its sign-in limits; list it in TRUST_PROXY if it is your reverse proxy`,
    );
  });
}
