/**
 * The agent and admin web app at `/` (README): index.html for `/` and for
 * the app's client-side routes (any GET outside the service's own prefixes
 * that accepts text/html), hashed assets under /assets/ cached as immutable,
 * and strict security headers on the HTML. The build (dist/web/agent) is found
 * relative to this module, so it works from dist/server/… and from the TS
 * sources in tests; without it `/` answers 503 saying how to build it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { errorBody } from '../../errors/handler.js';
import { registerPwa } from './pwa.js';

/** Paths that belong to the service, never to the app: unknown ones stay JSON 404s. */
const SERVICE_PREFIXES = ['/api', '/wh', '/widget', '/healthz', '/metrics', '/openapi.json', '/assets', '/icons'];

/** Stream (ws:, wss:), avatars and photos (https:, data:), visitor media (https:), the alert chime the app makes itself (blob:, web/agent/src/alerts.ts). */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "media-src 'self' https: blob:",
  "connect-src 'self' ws: wss:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
};

/** dist/web/agent, whether this module runs from server/routes/app or dist/server/routes/app. */
export function defaultAgentAppDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const top = path.resolve(here, '../../..');
  return path.basename(top) === 'dist' ? path.join(top, 'web/agent') : path.join(top, 'dist/web/agent');
}

function htmlHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('permissions-policy', 'camera=(), microphone=(), geolocation=()')
    .header('cache-control', 'no-cache');
}

function isServicePath(url: string): boolean {
  return SERVICE_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));
}

function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && /\btext\/html\b/i.test(accept);
}

/** Registers the app on `app` from `dir` (tests point it at a fixture directory). */
export async function registerAgentApp(app: FastifyInstance, options: { dir: string }): Promise<void> {
  const indexFile = path.join(options.dir, 'index.html');
  const assetsDir = path.join(options.dir, 'assets');
  // Read once it exists: the build may appear after the server started (npm run build:web).
  let indexHtml: Buffer | null = null;
  const readIndex = (): Buffer | null => {
    if (indexHtml) return indexHtml;
    try {
      indexHtml = fs.readFileSync(indexFile);
    } catch {
      return null;
    }
    return indexHtml;
  };

  const sendIndex = (reply: FastifyReply) => {
    htmlHeaders(reply);
    const html = readIndex();
    if (!html) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The agent app is not built yet: run `npm run build` (or `npm run build:web`) and reload this page.\n');
    }
    return reply.type('text/html; charset=utf-8').send(html);
  };

  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    reply.code(404).send(errorBody('route_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`));

  app.get('/', { schema: { hide: true } }, async (_request, reply) => sendIndex(reply));

  app.get('/assets/*', { schema: { hide: true } }, async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    // Flat, hashed file names only: no traversal, no dot files.
    if (!/^[\w-][\w.-]*$/.test(name)) return notFound(request, reply);
    const file = path.join(assetsDir, name);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      return notFound(request, reply);
    }
    if (!stat.isFile()) return notFound(request, reply);
    return reply
      .type(CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-length', stat.size)
      .send(fs.createReadStream(file));
  });

  // Client-side routes (/chats/12, /admin/channels …): the same index.html.
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split('?')[0];
    if (isServicePath(pathname) || !acceptsHtml(request)) return notFound(request, reply);
    return sendIndex(reply);
  });
}

export async function agentAppRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // The manifest, the service worker and the icons (pwa.ts): before the catch-all of client-side routes.
  await registerPwa(app, ctx, { dir: defaultAgentAppDir() });
  await registerAgentApp(app, { dir: defaultAgentAppDir() });
}
