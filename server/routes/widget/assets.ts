/**
 * The widget's static side (docs/WIDGET.md), built by `npm run build:web` into
 * dist/web/widget:
 *   GET /widget/<widget_id>.js       the loader, with the widget id and PUBLIC_URL injected;
 *   GET /widget/<widget_id>          the same (the original snippet's form, without .js);
 *                                    short cache + ETag; an unknown (or disabled) widget → a
 *                                    script logging one console line that names the id
 *   GET /script/widget/<widget_id>   the same again, with or without .js (the original's older
 *                                    snippet, still emitted by hosting-panel modules)
 *   GET /widget/svc-api.d.ts         TypeScript declarations of svc_api and the callbacks
 *   GET /widget/frame/<widget_id>    the chat frame's page; CSP frame-ancestors from the
 *                                    channel's allowed domains
 *   GET /widget/assets/<file>        the frame's hashed JS/CSS, immutable
 * The build directory is found relative to this module, so the same code
 * serves from dist/server/… and from the TypeScript sources under test.
 */
import { readAppearance } from '../../model/appearance.js';
import { widgetOptions } from '../../domain/channels/channelInput.js';
import { DEFAULT_WIDGET_COLOR } from '../../../protocol/widget.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Channel } from '../../db/schema.js';
import { frameAncestors } from '../../domain/widget/allowedDomains.js';
import { findWidgetChannel } from '../../domain/widget/visitorAccess.js';
import { AppError } from '../../errors/AppError.js';

/** Placeholders in the built loader (web/widget/loader/loader.ts). */
export const BASE_TOKEN = '__PARLEY_BASE__';
export const ID_TOKEN = '__PARLEY_WIDGET_ID__';
export const COLOR_TOKEN = '__PARLEY_COLOR__';

/** Paths of the loader: today's snippet, its form without `.js`, and the original's older `/script/widget/…` snippet. */
export const LOADER_PATHS = ['/widget/:script', '/script/widget/:script'] as const;

const JS = 'application/javascript; charset=utf-8';
const CONTENT_TYPES: Record<string, string> = {
  '.js': JS,
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** dist/web/widget beside dist/server (built server) or under the repository's dist (sources). */
export function defaultWidgetDistDir(): string {
  const serverDir = path.resolve(import.meta.dirname, '../..');
  const parent = path.dirname(serverDir);
  const dist = path.basename(parent) === 'dist' ? parent : path.join(parent, 'dist');
  return path.join(dist, 'web', 'widget');
}

/**
 * Characters safe in any JS string or template literal; everything else
 * becomes a \uXXXX escape, so an injected value can never end the literal.
 */
export function jsStringChars(value: string): string {
  return value.replace(/[^\w.:/~%-]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function injectLoader(source: string, publicUrl: string, widgetId: string, color = DEFAULT_WIDGET_COLOR): string {
  return source.split(BASE_TOKEN).join(jsStringChars(publicUrl)).split(ID_TOKEN).join(jsStringChars(widgetId)).split(COLOR_TOKEN).join(jsStringChars(color));
}

/** The widget's colour as the visitor sees it (the channel's, else the default): `svc_config.widget_color` before the frame is ready. */
export function widgetColor(channel: Pick<Channel, 'options_json'>): string {
  const color = widgetOptions(channel).color;
  return typeof color === 'string' ? color : DEFAULT_WIDGET_COLOR;
}

interface Built {
  body: Buffer;
  etag: string;
  mtimeMs: number;
}

const etagOf = (body: Buffer | string): string => `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** Reads built files, caching each until its mtime changes (a rebuild). */
class BuildReader {
  private readonly cache = new Map<string, Built>();

  constructor(readonly dir: string) {}

  async read(rel: string): Promise<Built | null> {
    const file = path.join(this.dir, rel);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      return null;
    }
    if (!stat.isFile()) return null;
    const hit = this.cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs) return hit;
    const body = await fs.promises.readFile(file);
    const built = { body, etag: etagOf(body), mtimeMs: stat.mtimeMs };
    this.cache.set(file, built);
    return built;
  }
}

async function widgetChannel(ctx: AppContext, widgetId: string): Promise<Channel | null> {
  if (!/^[\w-]{1,64}$/.test(widgetId)) return null;
  try {
    return await findWidgetChannel(ctx.db, widgetId);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return null;
    throw err;
  }
}

/** 304 when the client has this version. */
function fresh(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('etag', etag);
  const given = request.headers['if-none-match'];
  return typeof given === 'string' && given.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`);
}

const notBuilt = 'The widget is not built: run `npm run build` (or `npm run build:web`).';

/** The chat frame's Content-Security-Policy: only our own scripts and styles; pictures from anywhere (agent photos, files). */
export function frameCsp(channel: Pick<Channel, 'options_json'>, publicUrl: string): string {
  const ws = new URL(publicUrl);
  ws.protocol = ws.protocol === 'https:' ? 'wss:' : 'ws:';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' https: http: data: blob:",
    `connect-src 'self' ${ws.origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    frameAncestors(channel),
  ].join('; ');
}

export async function registerWidgetAssets(app: FastifyInstance, ctx: AppContext, opts: { dir: string }): Promise<void> {
  const build = new BuildReader(opts.dir);
  const hidden = { schema: { hide: true } };

  app.get('/widget/svc-api.d.ts', hidden, async (request, reply) => {
    const types = await build.read('svc-api.d.ts');
    if (!types) return reply.code(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(`${notBuilt}\n`);
    reply.type('application/typescript; charset=utf-8').header('cache-control', 'public, max-age=300');
    if (fresh(request, reply, types.etag)) return reply.code(304).send();
    return reply.send(types.body);
  });

  const loaderScript = async (request: FastifyRequest<{ Params: { script: string } }>, reply: FastifyReply): Promise<FastifyReply> => {
    const widgetId = /^([\w-]{1,64})(\.js)?$/.exec(request.params.script)?.[1];
    reply.type(JS);
    if (!widgetId) return reply.code(404).header('cache-control', 'no-cache').send(`/* Parley: no such widget script. */\n`);
    const channel = await widgetChannel(ctx, widgetId);
    if (!channel) {
      // A script (browsers run none with a 404 status) that says on the page's console what is wrong.
      const line = `Parley: there is no chat widget "${jsStringChars(widgetId)}" (unknown or disabled); copy the install snippet from the channel's settings.`;
      return reply.header('cache-control', 'no-cache').send(`console.warn(${JSON.stringify(line)});\n`);
    }
    const loader = await build.read('loader.js');
    if (!loader) return reply.code(503).header('cache-control', 'no-store').send(`/* Parley: ${notBuilt} */\n`);
    const body = injectLoader(loader.body.toString('utf8'), ctx.config.publicUrl, channel.public_id, widgetColor(channel));
    reply.header('cache-control', 'public, max-age=300');
    if (fresh(request, reply, etagOf(body))) return reply.code(304).send();
    return reply.send(body);
  };
  for (const url of LOADER_PATHS) app.get<{ Params: { script: string } }>(url, hidden, loaderScript);

  app.get<{ Params: { widgetId: string } }>('/widget/frame/:widgetId', hidden, async (request, reply) => {
    const channel = await widgetChannel(ctx, request.params.widgetId);
    // Readable from any page: a loader whose widget is gone asks here whether it is served again (re-enabled) to start over.
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('access-control-allow-origin', '*');
    const html = await build.read('frame/index.html');
    if (!html) return reply.code(503).type('text/plain; charset=utf-8').send(`${notBuilt}\n`);
    if (!channel) {
      // A page still holding the loader (cached) of a widget deleted or disabled since: the frame's app runs, finds no
      // widget and tells the loader, which takes the widget off the page (svc_onWidgetDestroy).
      return reply
        .code(404)
        .header('content-security-policy', frameCsp({ options_json: '{}' }, ctx.config.publicUrl))
        .send(html.body);
    }
    reply.header('content-security-policy', frameCsp(channel, ctx.config.publicUrl)).header('referrer-policy', 'strict-origin-when-cross-origin');
    // The widget's fixed language, read by the frame before it starts (it loads that language's texts at once).
    const language = readAppearance(channel).language;
    const body =
      language === 'auto' ? html.body : html.body.toString('utf8').replace('<html lang="en"', `<html lang="${language}" data-language="${language}"`);
    // The policy and the language depend on the channel, so they are part of the version.
    if (fresh(request, reply, etagOf(html.etag + frameAncestors(channel) + language))) return reply.code(304).send();
    return reply.send(body);
  });

  app.get<{ Params: { file: string } }>('/widget/assets/:file', hidden, async (request, reply) => {
    const name = request.params.file;
    // Flat, hashed file names only: no traversal, no dot files.
    const asset = /^[\w-][\w.-]*$/.test(name) ? await build.read(path.join('assets', name)) : null;
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('No such widget asset.\n');
    reply.type(CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream').header('cache-control', 'public, max-age=31536000, immutable');
    if (fresh(request, reply, asset.etag)) return reply.code(304).send();
    return reply.send(asset.body);
  });
}

export async function widgetAssetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerWidgetAssets(app, ctx, { dir: defaultWidgetDistDir() });
}
