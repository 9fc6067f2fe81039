/**
 * What makes the agent app installable (docs/NOTIFICATIONS.md): the web app
 * manifest at /manifest.webmanifest (named after the account: the company's
 * name, "Parley" until it is set; icons 192 and 512 px and a maskable one,
 * start_url /, display standalone, the app's colours), the service worker at
 * /sw.js (scope /, never cached by HTTP so an update is seen at once), the
 * "no connection" page it shows offline, the icons and the favicon. The files
 * come from the web build (web/agent/public → dist/web/agent); the manifest is
 * made per request. None needs a session: the browser fetches them itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { shownAccountName } from '../../domain/accounts/accountName.js';
import { errorBody } from '../../errors/handler.js';

export const THEME_COLOR = '#2f6fed';
export const BACKGROUND_COLOR = '#f5f6f8';

/** The manifest for an account named `name` (shown name). */
export function webManifest(name: string) {
  return {
    id: '/',
    name,
    short_name: name.length > 12 ? 'Parley' : name,
    description: `${name}: answer your visitors' chats.`,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

/** Files of the build's root, by URL: type and cache rule. */
const FILES: Record<string, { file: string; type: string; cache: string }> = {
  '/sw.js': { file: 'sw.js', type: 'text/javascript; charset=utf-8', cache: 'no-cache' },
  '/offline.html': { file: 'offline.html', type: 'text/html; charset=utf-8', cache: 'no-cache' },
  '/offline.css': { file: 'offline.css', type: 'text/css; charset=utf-8', cache: 'no-cache' },
  '/favicon.ico': { file: 'icons/favicon-32.png', type: 'image/png', cache: 'public, max-age=86400' },
};

const ICON = /^(icon-192|icon-512|maskable-512|favicon-32)\.png$/;

async function sendFile(reply: FastifyReply, file: string, type: string, cache: string): Promise<FastifyReply> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch {
    return reply.code(404).send(errorBody('route_not_found', 'The agent app is not built yet: run `npm run build`.'));
  }
  return reply.type(type).header('cache-control', cache).header('content-length', stat.size).send(fs.createReadStream(file));
}

export async function registerPwa(app: FastifyInstance, ctx: Pick<AppContext, 'db'>, options: { dir: string }): Promise<void> {
  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (_request, reply) => {
    // One account per deployment in practice; the first one names the app.
    const account = await ctx.db.selectFrom('accounts').select('name').orderBy('id', 'asc').limit(1).executeTakeFirst();
    return reply
      .type('application/manifest+json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(JSON.stringify(webManifest(shownAccountName(account?.name))));
  });

  for (const [url, f] of Object.entries(FILES)) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => {
      if (url === '/sw.js') reply.header('service-worker-allowed', '/');
      return sendFile(reply, path.join(options.dir, f.file), f.type, f.cache);
    });
  }

  app.get('/icons/:name', { schema: { hide: true } }, async (request, reply) => {
    const name = (request.params as { name: string }).name;
    if (!ICON.test(name)) return reply.code(404).send(errorBody('route_not_found', `No route GET ${request.url.split('?')[0]}.`));
    return sendFile(reply, path.join(options.dir, 'icons', name), 'image/png', 'public, max-age=86400');
  });
}
