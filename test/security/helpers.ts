/**
 * Helpers of the security tests: row snapshots of whole tables (to prove a
 * refused request changed nothing), a second account with an admin and an
 * agent, and the real app built with an onRoute hook that lists every route
 * it registers (so route-wide checks cover routes added later).
 */
import type { FastifyServerOptions, RouteOptions } from 'fastify';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config/config.js';
import type { Database } from '../../server/db/schema.js';
import type { Clock } from '../../server/lib/time.js';
import { createOtherAccount } from '../helpers/accounts.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, freshStore, type TestApp } from '../helpers/testApp.js';

export type Table = keyof Database;

export const ALL_TABLES: Table[] = [
  'accounts',
  'agents',
  'auth_tokens',
  'sign_in_throttles',
  'departments',
  'channels',
  'channel_agents',
  'settings',
  'visitors',
  'chats',
  'messages',
  'inbound_dedup',
  'events',
  'deliveries',
  'offline_messages',
  'calls',
];

/** Every row of a table, serialized and sorted. */
export async function tableRows(t: TestApp, table: Table): Promise<string[]> {
  const rows = await t.app.ctx.db.selectFrom(table).selectAll().execute();
  return rows.map((r) => JSON.stringify(r)).sort();
}

/** Every row of every table but `except`, by table. */
export async function snapshotTables(t: TestApp, except: Table[] = []): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of ALL_TABLES) if (!except.includes(table)) out[table] = await tableRows(t, table);
  return out;
}

export interface OtherAccount {
  accountId: number;
  adminId: number;
  adminToken: string;
  agentId: number;
  agentToken: string;
}

/** A second account with its admin and one agent, both signed in. */
export async function otherAccount(t: TestApp, prefix = 'other'): Promise<OtherAccount> {
  const other = await createOtherAccount(t, `${prefix}-boss@other.example`);
  const email = `${prefix}-agent@other.example`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/agents',
    headers: bearer(other.token),
    payload: { name: 'Other agent', email, password: 'other-agent-pass', role: 'agent' },
  });
  if (res.statusCode !== 201) throw new Error(`other agent: ${res.statusCode} ${res.body}`);
  return {
    accountId: other.accountId,
    adminId: other.adminId,
    adminToken: other.token,
    agentId: res.json().id,
    agentToken: await t.login(email, 'other-agent-pass'),
  };
}

export interface RouteEntry {
  method: string;
  url: string;
  websocket: boolean;
}

/** The real app, like createTestApp(), with the list of every route it registered. */
export async function appWithRoutes(
  opts: { env?: Record<string, string>; clock?: Clock; workers?: boolean; logger?: FastifyServerOptions['logger'] } = {},
): Promise<{ t: TestApp; routes: RouteEntry[] }> {
  const store = freshStore();
  const config = loadConfig({
    PUBLIC_URL: 'http://parley.test',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    OUTBOUND_ALLOW_PRIVATE: '1',
    LOG_LEVEL: 'silent',
    TRUST_PROXY: '127.0.0.1',
    ...store.env,
    ...opts.env,
  });
  const routes: RouteEntry[] = [];
  const app = await buildApp({
    config,
    clock: opts.clock,
    workers: opts.workers ?? false,
    logger: opts.logger ?? false,
    beforeRoutes: (instance) => {
      instance.addHook('onRoute', (route: RouteOptions & { websocket?: boolean }) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url, websocket: route.websocket === true });
      });
    },
  });
  const login = async (email: string, password: string): Promise<string> => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return res.json().token as string;
  };
  const t: TestApp = {
    app,
    config,
    store,
    adminToken: await login(ADMIN_EMAIL, ADMIN_PASSWORD),
    login,
    close: async () => {
      await app.close();
      await store.cleanup();
    },
  };
  return { t, routes };
}

/** Which table an `:id` of /api/v1/<resource>/:id names. */
const ID_TABLES: Record<string, Table> = {
  agents: 'agents',
  departments: 'departments',
  channels: 'channels',
  chats: 'chats',
  calls: 'calls',
  deliveries: 'deliveries',
  visitors: 'visitors',
  erasures: 'erasures',
};

/**
 * A route's URL with real values: `:id` of /api/v1/<resource>/:id becomes the
 * newest id of its table (1 when the table is not known here); other
 * parameters come from `params` (`:widgetId`, `*`, …), else "1".
 */
export async function concreteUrl(t: TestApp, url: string, params: Record<string, string> = {}): Promise<string> {
  const resource = /^\/api\/v1\/([\w-]+)\/:id/.exec(url)?.[1];
  const table = resource ? ID_TABLES[resource] : undefined;
  let id = 1;
  if (table) {
    const row = await t.app.ctx.db.selectFrom(table).select('id').orderBy('id', 'desc').executeTakeFirst();
    id = row?.id ?? 1;
  }
  return url.replace(/:\w+|\*/g, (p) => params[p] ?? (p === ':id' ? String(id) : '1'));
}
