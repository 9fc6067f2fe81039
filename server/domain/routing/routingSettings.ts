/**
 * The admin's routing settings (GET/PUT /api/v1/routing, docs/ROUTING.md):
 * the account's mode, offer timeout and department wait, each department's
 * own mode and names in the widget's languages, each agent's concurrent-chat
 * limit and each widget's department choice, read and changed in one
 * place. A change names only what it changes; every value is checked first
 * (a 400 in words, nothing stored), then all is written in one transaction.
 * New settings apply to chats routed from then on.
 */
import type { RoutingSettingsDto } from '../../../protocol/routing.js';
import type { AppContext } from '../../context.js';
import { inTransaction, isPostgres, type Executor } from '../../db/database.js';
import { toJson } from '../../lib/json.js';
import { WIDGET_LANGUAGES } from '../../../protocol/widget.js';
import { widgetOptions } from '../channels/channelInput.js';
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
import { DEPARTMENT_CHOICES, departmentChoice, departmentNames, type DepartmentChoice } from './departmentChoice.js';

export const MAX_CHATS_LIMIT = 1000;

/** The shape GET/PUT /routing answer (protocol/routing.ts). */
export type RoutingView = RoutingSettingsDto;

export interface RoutingChanges {
  mode?: string;
  offer_timeout_seconds?: number;
  everyone_after_seconds?: number | null;
  /** A department's mode (null = the account's) and/or its names in the widget's languages ({} = none). */
  departments?: Array<{ id: number; mode?: string | null; names?: Record<string, string> }>;
  agents?: Array<{ id: number; max_chats: number | null }>;
  widgets?: Array<{ id: number; department_choice: string }>;
}

async function viewOf(db: Executor, accountId: number): Promise<RoutingView> {
  const account = await accountRouting(db, accountId);
  const departments = await db
    .selectFrom('departments')
    .select(['id', 'name', 'routing_mode', 'names_json'])
    .where('account_id', '=', accountId)
    .orderBy('name')
    .execute();
  const agents = await db.selectFrom('agents').select(['id', 'name', 'max_chats']).where('account_id', '=', accountId).orderBy('name').execute();
  const widgets = await db.selectFrom('channels').selectAll().where('account_id', '=', accountId).where('type', '=', 'widget').orderBy('name').execute();
  return {
    ...account,
    departments: departments.map((d) => ({
      id: d.id,
      name: d.name,
      mode: d.routing_mode === null ? null : storedMode(d.routing_mode),
      names: departmentNames(d.names_json),
    })),
    agents,
    widgets: widgets.map((w) => ({ id: w.id, name: w.name, department_choice: departmentChoice(w) })),
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

function cleanNames(departmentId: number, names: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [lang, raw] of Object.entries(names)) {
    if (!(WIDGET_LANGUAGES as readonly string[]).includes(lang)) {
      throw invalid(`Names of department ${departmentId}: "${lang.slice(0, 10)}" is not a widget language (${WIDGET_LANGUAGES.join(', ')}).`);
    }
    const name = typeof raw === 'string' ? raw.trim() : '';
    if (name.length > 100) throw invalid(`Names of department ${departmentId}: the ${lang} name is longer than 100 characters.`);
    if (name !== '') out[lang] = name;
  }
  return out;
}

function cleanChoice(widgetId: number, value: string): DepartmentChoice {
  const choice = DEPARTMENT_CHOICES.find((c) => c === value);
  if (!choice) throw invalid(`The department choice of widget ${widgetId} must be "off", "optional" or "required" (got "${String(value).slice(0, 40)}").`);
  return choice;
}

export async function updateRouting(ctx: AppContext, input: { actor: Actor; changes: RoutingChanges }): Promise<RoutingView> {
  const { actor, changes } = input;
  assertAdmin(actor);
  const accountId = actor.account_id;
  const now = ctx.clock();
  const departmentChanges = (changes.departments ?? []).map((d) => ({
    id: d.id,
    mode: d.mode === undefined ? undefined : d.mode === null ? null : cleanMode(`The mode of department ${d.id}`, d.mode),
    names: d.names === undefined ? undefined : cleanNames(d.id, d.names),
  }));
  const widgetChoices = (changes.widgets ?? []).map((w) => ({ id: w.id, choice: cleanChoice(w.id, w.department_choice) }));
  for (const a of changes.agents ?? []) {
    if (a.max_chats !== null && (!Number.isInteger(a.max_chats) || a.max_chats < 1 || a.max_chats > MAX_CHATS_LIMIT)) {
      throw invalid(`The chat limit of agent ${a.id} must be a whole number from 1 to ${MAX_CHATS_LIMIT}, or null for no limit (got ${a.max_chats}).`);
    }
  }
  return inTransaction(ctx.db, async (tx) => {
    const account = cleanAccount(await accountRouting(tx, accountId), changes);
    if (changes.mode !== undefined || changes.offer_timeout_seconds !== undefined || changes.everyone_after_seconds !== undefined) {
      await tx
        .insertInto('routing_settings')
        .values({ account_id: accountId, ...account, updated_at: now })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...account, updated_at: now }))
        .execute();
    }
    for (const d of departmentChanges) {
      const r = await tx
        .updateTable('departments')
        .set({
          ...(d.mode !== undefined ? { routing_mode: d.mode } : {}),
          ...(d.names !== undefined ? { names_json: Object.keys(d.names).length === 0 ? null : toJson(d.names) } : {}),
        })
        .where('id', '=', d.id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw invalid(`departments: ${d.id} is not a department of this account.`);
    }
    for (const w of widgetChoices) {
      const channel = await tx
        .selectFrom('channels')
        .selectAll()
        .where('id', '=', w.id)
        .where('account_id', '=', accountId)
        .where('type', '=', 'widget')
        .$if(isPostgres(tx), (q) => q.forUpdate())
        .executeTakeFirst();
      if (!channel) throw invalid(`widgets: ${w.id} is not a widget of this account.`);
      const options = widgetOptions(channel);
      if (w.choice === 'off') delete options.department_choice;
      else options.department_choice = w.choice;
      await tx
        .updateTable('channels')
        .set({ options_json: toJson(options), updated_at: now })
        .where('id', '=', w.id)
        .execute();
    }
    for (const a of changes.agents ?? []) {
      const r = await tx.updateTable('agents').set({ max_chats: a.max_chats }).where('id', '=', a.id).where('account_id', '=', accountId).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw invalid(`agents: ${a.id} is not an agent of this account.`);
    }
    return viewOf(tx, accountId);
  });
}
