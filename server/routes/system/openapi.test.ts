/**
 * /openapi.json is an OpenAPI 3 document that lists every /api/v1 route the
 * app registers (routes with schema.hide excepted), so API clients can rely on it.
 */
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { loadConfig } from '../../config/config.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, freshStore, type TestStore } from '../../../test/helpers/testApp.js';

interface Operation {
  responses?: Record<string, unknown>;
}
interface OpenApiDocument {
  openapi?: string;
  info?: { title?: unknown; version?: unknown };
  paths?: Record<string, Record<string, Operation>>;
}

/** Fastify's `/chats/:id` is OpenAPI's `/chats/{id}`. */
const openApiPath = (url: string): string => url.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI document', () => {
  let app: App;
  let store: TestStore;
  const routes: Array<{ method: string; url: string }> = [];

  beforeAll(async () => {
    store = freshStore();
    app = await buildApp({
      config: loadConfig({ ...store.env, ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'silent' }),
      workers: false,
      logger: false,
      beforeRoutes: (a) => {
        a.addHook('onRoute', (route: RouteOptions) => {
          const hidden = route.schema?.hide === true;
          if (hidden || !route.url.startsWith('/api/v1')) return;
          for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
        });
      },
    });
  });

  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it('is a valid-looking OpenAPI 3 document', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<OpenApiDocument>();
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(typeof doc.info?.title).toBe('string');
    expect(typeof doc.info?.version).toBe('string');
    expect(doc.paths).toBeTypeOf('object');
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      expect(path.startsWith('/')).toBe(true);
      for (const [method, operation] of Object.entries(item)) {
        expect(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']).toContain(method);
        expect(operation.responses, `${method.toUpperCase()} ${path} has responses`).toBeTypeOf('object');
      }
    }
  });

  it('lists every /api/v1 route the app registers', async () => {
    expect(routes.length).toBeGreaterThan(0);
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDocument>();
    const missing = routes.filter(({ method, url }) => !doc.paths?.[openApiPath(url)]?.[method.toLowerCase()]).map(({ method, url }) => `${method} ${url}`);
    expect(missing).toEqual([]);
    // The login route, at least, is there under its OpenAPI path.
    expect(doc.paths?.['/api/v1/auth/login']?.post).toBeDefined();
  });

  it('leaves out hidden routes', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDocument>();
    expect(doc.paths?.['/healthz']).toBeUndefined();
    expect(doc.paths?.['/openapi.json']).toBeUndefined();
  });
});
