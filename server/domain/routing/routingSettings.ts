/**
 * The admin's routing settings (GET/PUT /api/v1/routing, docs/ROUTING.md):
 * the account's mode, offer timeout and department wait, each department's
 * own mode and each agent's concurrent-chat limit, read and changed in one
 * place. A change names only what it changes; every value is checked first
 * (a 400 in words, nothing stored), then all is written in one transaction.
 * New settings apply to chats routed from then on.
 */
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { invalid } from '../../errors/AppError.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import {
  isRoutingMode,
  MAX_EVERYONE_AFTER_SECONDS,
  MAX_OFFER_TIMEOUT_SECONDS,
  MIN_OFFER_TIMEOUT_SECONDS,
  ROUTING_MODES,
  storedMode,
  type RoutingMode,
} from './modes.js';
import { accountRouting, type AccountRouting } from './routingConfig.js';

export const MAX_CHATS_LIMIT = 1000;

export interface RoutingView extends AccountRouting {
  departments: Array<{ id: number; name: string; mode: RoutingMode | null }>;
  agents: Array<{ id: number; name: string; max_chats: number | null }>;
}

export interface RoutingChanges {
  mode?: string;
  offer_timeout_seconds?: number;
  everyone_after_seconds?: number | null;
  departments?: Array<{ id: number; mode: string | null }>;
  agents?: Array<{ id: number; max_chats: number | null }>;
}

async function viewOf(db: Executor, accountId: number): Promise<RoutingView> {
  const account = await accountRouting(db, accountId);
  const departments = await db.selectFrom('departments').select(['id', 'name', 'routing_mode']).where('account_id', '=', accountId).orderBy('name').execute();
  const agents = await db.selectFrom('agents').select(['id', 'name', 'max_chats']).where('account_id', '=', accountId).orderBy('name').execute();
  return {
    ...account,
    departments: departments.map((d) => ({ id: d.id, name: d.name, mode: d.routing_mode === null ? null : storedMode(d.routing_mode) })),
    agents,
  };
}

export async function getRouting(ctx: AppContext, input: { actor: Actor }): Promise<RoutingView> {
  assertAdmin(input.actor);
  return viewOf(ctx.db, input.actor.account_id);
}

const modeWords = ROUTING_MODES.map((m) => `"${m}"`).join(', ');

function cleanMode(where: string, value: string): RoutingMode {
  if (!isRoutingMode(value)) throw invalid(`${where} must be one of ${modeWords} (got "${String(value).slice(0, 40)}").`);
  return value;
}

function cleanAccount(current: AccountRouting, changes: RoutingChanges): AccountRouting {
  const next = { ...current };
  if (changes.mode !== undefined) next.mode = cleanMode('mode', changes.mode);
  const t = changes.offer_timeout_seconds;
  if (t !== undefined) {
    if (!Number.isInteger(t) || t < MIN_OFFER_TIMEOUT_SECONDS || t > MAX_OFFER_TIMEOUT_SECONDS) {
      throw invalid(`The offer timeout must be a whole number of seconds from ${MIN_OFFER_TIMEOUT_SECONDS} to ${MAX_OFFER_TIMEOUT_SECONDS} (got ${t}).`);
    }
    next.offer_timeout_seconds = t;
  }
  const w = changes.everyone_after_seconds;
  if (w !== undefined) {
    if (w !== null && (!Number.isInteger(w) || w < 0 || w > MAX_EVERYONE_AFTER_SECONDS)) {
      throw invalid(
        `The wait before everyone is offered a department's chat must be a whole number of seconds from 0 to ${MAX_EVERYONE_AFTER_SECONDS}, or null for never (got ${w}).`,
      );
    }
    next.everyone_after_seconds = w;
  }
  return next;
}

export async function updateRouting(ctx: AppContext, input: { actor: Actor; changes: RoutingChanges }): Promise<RoutingView> {
  const { actor, changes } = input;
  assertAdmin(actor);
  const accountId = actor.account_id;
  const now = ctx.clock();
  const departmentModes = (changes.departments ?? []).map((d) => ({
    id: d.id,
    mode: d.mode === null ? null : cleanMode(`The mode of department ${d.id}`, d.mode),
  }));
  for (const a of changes.agents ?? []) {
    if (a.max_chats !== null && (!Number.isInteger(a.max_chats) || a.max_chats < 1 || a.max_chats > MAX_CHATS_LIMIT)) {
      throw invalid(`The chat limit of agent ${a.id} must be a whole number from 1 to ${MAX_CHATS_LIMIT}, or null for no limit (got ${a.max_chats}).`);
    }
  }
  return ctx.db.transaction().execute(async (tx) => {
    const account = cleanAccount(await accountRouting(tx, accountId), changes);
    if (changes.mode !== undefined || changes.offer_timeout_seconds !== undefined || changes.everyone_after_seconds !== undefined) {
      await tx
        .insertInto('routing_settings')
        .values({ account_id: accountId, ...account, updated_at: now })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...account, updated_at: now }))
        .execute();
    }
    for (const d of departmentModes) {
      const r = await tx.updateTable('departments').set({ routing_mode: d.mode }).where('id', '=', d.id).where('account_id', '=', accountId).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw invalid(`departments: ${d.id} is not a department of this account.`);
    }
    for (const a of changes.agents ?? []) {
      const r = await tx.updateTable('agents').set({ max_chats: a.max_chats }).where('id', '=', a.id).where('account_id', '=', accountId).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw invalid(`agents: ${a.id} is not an agent of this account.`);
    }
    return viewOf(tx, accountId);
  });
}
