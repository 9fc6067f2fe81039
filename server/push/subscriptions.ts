/**
 * An agent's push subscriptions (the browsers it asked to be notified on,
 * POST/DELETE/GET /api/v1/me/push-subscriptions) and its agent-app tabs'
 * visibility (PUT /api/v1/me/tabs/:tab), which decide whether a push goes out
 * at all (subscriber.ts): an agent with a visible tab already hears the alert
 * there.
 *
 * A subscription is the browser's PushSubscription JSON: the push service's
 * `endpoint` (https; http only with OUTBOUND_ALLOW_PRIVATE, for a push service
 * on the machine, as the tests run one) and `keys` (`p256dh`, the browser's
 * P-256 public key, 65 bytes uncompressed; `auth`, 16 bytes), base64url. An
 * endpoint is one browser: registering it again (another agent signed in on
 * the same device) moves it to the one registering. At most
 * MAX_SUBSCRIPTIONS per agent: a new one beyond replaces the oldest.
 */
import type { AppContext } from '../context.js';
import { inTransaction, type Executor } from '../db/database.js';
import type { Agent, PushSubscription } from '../db/schema.js';
import { invalid } from '../errors/AppError.js';

export const MAX_SUBSCRIPTIONS = 10;
export const MAX_ENDPOINT_CHARS = 2048;
/** A visible tab says so again every 30 s (web/agent/src/tabVisibility.ts); one silent longer than this counts as gone. */
export const TAB_FRESH_MS = 75_000;

export interface SubscriptionInput {
  endpoint?: unknown;
  keys?: unknown;
}

export interface PushSubscriptionView {
  id: number;
  endpoint: string;
  /** The push service's host: enough for "Chrome on this phone" to be told apart in Profile. */
  service: string;
  user_agent: string | null;
  created_at: number;
  last_pushed_at: number | null;
}

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function key(value: unknown, name: string, bytes: number, first?: number): string {
  if (typeof value !== 'string' || value.length > 200 || !B64URL.test(value)) throw invalid(`keys.${name} must be the browser's base64url ${name} key.`);
  const raw = Buffer.from(value, 'base64url');
  if (raw.length !== bytes || (first !== undefined && raw[0] !== first))
    throw invalid(`keys.${name} must be ${bytes} bytes${first === 4 ? ' (an uncompressed P-256 point)' : ''}, base64url (got ${raw.length} bytes).`);
  return raw.toString('base64url');
}

/** The endpoint as stored, or a 400 saying what is wrong with it. */
export function checkEndpoint(value: unknown, allowHttp: boolean): string {
  if (typeof value !== 'string' || value.length === 0) throw invalid('endpoint must be the push service URL of the subscription.');
  if (value.length > MAX_ENDPOINT_CHARS) throw invalid(`endpoint must be at most ${MAX_ENDPOINT_CHARS} characters.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('endpoint must be an absolute https URL.');
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) throw invalid('endpoint must be an https URL.');
  if (url.username || url.password) throw invalid('endpoint must not carry a user name or password.');
  return url.href;
}

export function presentSubscription(row: PushSubscription): PushSubscriptionView {
  return {
    id: row.id,
    endpoint: row.endpoint,
    service: new URL(row.endpoint).host,
    user_agent: row.user_agent,
    created_at: row.created_at,
    last_pushed_at: row.last_pushed_at,
  };
}

export async function registerSubscription(
  ctx: AppContext,
  input: { agent: Agent; body: SubscriptionInput; userAgent: string | null },
): Promise<{ created: boolean; subscription: PushSubscriptionView }> {
  const endpoint = checkEndpoint(input.body.endpoint, ctx.config.outboundAllowPrivate);
  const keys = input.body.keys;
  if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) throw invalid('keys must be an object {"p256dh", "auth"}.');
  const { p256dh, auth } = keys as Record<string, unknown>;
  const values = { p256dh: key(p256dh, 'p256dh', 65, 4), auth: key(auth, 'auth', 16) };
  const userAgent = input.userAgent?.slice(0, 300) ?? null;
  const now = ctx.clock();
  const agent = input.agent;
  return inTransaction(ctx.db, async (tx) => {
    const existing = await tx.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint).executeTakeFirst();
    if (existing) {
      await tx
        .updateTable('push_subscriptions')
        .set({ ...values, account_id: agent.account_id, agent_id: agent.id, user_agent: userAgent })
        .where('id', '=', existing.id)
        .execute();
    } else {
      await tx
        .insertInto('push_subscriptions')
        .values({ ...values, endpoint, account_id: agent.account_id, agent_id: agent.id, user_agent: userAgent, created_at: now, last_pushed_at: null })
        .execute();
    }
    const mine = await tx.selectFrom('push_subscriptions').select('id').where('agent_id', '=', agent.id).orderBy('id', 'desc').execute();
    const extra = mine.slice(MAX_SUBSCRIPTIONS).map((r) => r.id);
    if (extra.length > 0) await tx.deleteFrom('push_subscriptions').where('id', 'in', extra).execute();
    const row = await tx.selectFrom('push_subscriptions').selectAll().where('endpoint', '=', endpoint).executeTakeFirstOrThrow();
    return { created: !existing, subscription: presentSubscription(row) };
  });
}

/** Removes one of the agent's subscriptions, by endpoint or id; true when there was one. */
export async function removeSubscription(ctx: AppContext, input: { agent: Agent; endpoint?: unknown; id?: number }): Promise<boolean> {
  let query = ctx.db.deleteFrom('push_subscriptions').where('agent_id', '=', input.agent.id);
  if (input.id !== undefined) query = query.where('id', '=', input.id);
  else {
    if (typeof input.endpoint !== 'string' || input.endpoint.length === 0 || input.endpoint.length > MAX_ENDPOINT_CHARS)
      throw invalid('endpoint must be the push service URL of the subscription.');
    let endpoint = input.endpoint;
    try {
      endpoint = new URL(input.endpoint).href;
    } catch {
      // not a URL: matches nothing
    }
    query = query.where('endpoint', '=', endpoint);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listSubscriptions(ctx: AppContext, agent: Agent): Promise<PushSubscriptionView[]> {
  const rows = await ctx.db.selectFrom('push_subscriptions').selectAll().where('agent_id', '=', agent.id).orderBy('id', 'asc').execute();
  return rows.map(presentSubscription);
}

const TAB_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** Records whether one of the agent's tabs is visible (PUT /me/tabs/:tab). */
export async function markTab(ctx: AppContext, input: { agent: Agent; tab: string; visible: boolean }): Promise<void> {
  if (!TAB_ID.test(input.tab)) throw invalid('The tab id must be 8 to 64 letters, digits, "-" or "_".');
  const now = ctx.clock();
  await ctx.db
    .insertInto('agent_tabs')
    .values({ agent_id: input.agent.id, tab_id: input.tab, visible: input.visible ? 1 : 0, updated_at: now })
    .onConflict((oc) => oc.columns(['agent_id', 'tab_id']).doUpdateSet({ visible: input.visible ? 1 : 0, updated_at: now }))
    .execute();
  // Tabs gone silent long ago are forgotten as the agent's tabs speak.
  await ctx.db
    .deleteFrom('agent_tabs')
    .where('agent_id', '=', input.agent.id)
    .where('updated_at', '<', now - 24 * 3600_000)
    .execute();
}

/** The agents among `agentIds` with a visible tab that spoke within TAB_FRESH_MS. */
export async function agentsWithVisibleTab(db: Executor, agentIds: number[], now: number): Promise<Set<number>> {
  if (agentIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('agent_tabs')
    .select('agent_id')
    .where('agent_id', 'in', agentIds)
    .where('visible', '=', 1)
    .where('updated_at', '>=', now - TAB_FRESH_MS)
    .execute();
  return new Set(rows.map((r) => r.agent_id));
}
