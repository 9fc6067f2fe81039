/**
 * Every route module of the service, registered in one place.
 * Prefixes: /api/v1 (agent & admin API), /wh (chat channel), /widget, /healthz, /metrics, /openapi.json.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { authRoutes } from './api/v1/auth/auth.js';
import { meRoutes } from './api/v1/me/me.js';
import { systemRoutes } from './system/system.js';

export type RouteModule = (app: FastifyInstance, ctx: AppContext) => Promise<void>;

const apiV1: RouteModule[] = [authRoutes, meRoutes];

export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    for (const mod of apiV1) await mod(scope, ctx);
  }, { prefix: '/api/v1' });
  await systemRoutes(app, ctx);
}
