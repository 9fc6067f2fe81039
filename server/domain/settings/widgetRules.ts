/**
 * The account's widget invitation rules (settings.rules), checked against the
 * format of docs/WIDGET.md ("Invitation rules") before they are stored, so the
 * widget never has to skip one: {rules: [{id, conditions: {seconds_on_page?,
 * url_contains?, url_matches?, min_visits?}, action: {type: 'invitation',
 * text, department_id?}}]} (a bare array of rules is taken as {rules}).
 * Unknown keys are refused (a misspelt condition would otherwise match every
 * page). Each refusal is a 400 naming the rule and what is wrong.
 */
import { MAX_ID } from '../../db/columns.js';
import type { Executor } from '../../db/database.js';
import { invalid } from '../../errors/AppError.js';
import type { WidgetRule, WidgetRules } from '../../model/settings.js';
export type { WidgetRule, WidgetRules } from '../../model/settings.js';

export const MAX_RULES = 50;
export const MAX_INVITATION_TEXT = 500;
/** The widget frame refuses longer patterns, so the account may not store them. */
export const MAX_PATTERN = 500;
const MAX_SECONDS = 86_400;
const MAX_VISITS = 1_000_000;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function onlyKeys(where: string, value: Rec, allowed: string[]): void {
  const extra = Object.keys(value).filter((k) => !allowed.includes(k));
  if (extra.length > 0)
    throw invalid(
      `${where} has unknown ${extra.length > 1 ? 'keys' : 'key'} ${extra.map((k) => `"${k.slice(0, 40)}"`).join(', ')}; allowed: ${allowed.join(', ')}.`,
    );
}

function count(where: string, value: unknown, max: number, integer: boolean): number {
  const ok = typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max && (!integer || Number.isInteger(value));
  if (!ok) throw invalid(`${where} must be a ${integer ? 'whole ' : ''}number from 0 to ${max} (got ${JSON.stringify(value)?.slice(0, 40)}).`);
  return value;
}

function text(where: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${where} must be a non-empty string.`);
  if (value.length > max) throw invalid(`${where} must have at most ${max} characters (got ${value.length}).`);
  return value;
}

function cleanConditions(where: string, raw: unknown): WidgetRule['conditions'] {
  if (raw === undefined) return {};
  if (!isRec(raw)) throw invalid(`${where} must be an object.`);
  onlyKeys(where, raw, ['seconds_on_page', 'url_contains', 'url_matches', 'min_visits']);
  const out: WidgetRule['conditions'] = {};
  if (raw.seconds_on_page !== undefined) out.seconds_on_page = count(`${where}.seconds_on_page`, raw.seconds_on_page, MAX_SECONDS, false);
  if (raw.url_contains !== undefined) out.url_contains = text(`${where}.url_contains`, raw.url_contains, 2048);
  if (raw.url_matches !== undefined) {
    const pattern = text(`${where}.url_matches`, raw.url_matches, MAX_PATTERN);
    try {
      new RegExp(pattern);
    } catch (err) {
      throw invalid(`${where}.url_matches is not a valid JavaScript regular expression (${(err as Error).message.slice(0, 120)}).`);
    }
    out.url_matches = pattern;
  }
  if (raw.min_visits !== undefined) out.min_visits = count(`${where}.min_visits`, raw.min_visits, MAX_VISITS, true);
  return out;
}

function cleanAction(where: string, raw: unknown): WidgetRule['action'] {
  if (!isRec(raw)) throw invalid(`${where} must be {type: "invitation", text, department_id?}.`);
  onlyKeys(where, raw, ['type', 'text', 'department_id']);
  if (raw.type !== 'invitation') throw invalid(`${where}.type must be "invitation" (got ${JSON.stringify(raw.type)?.slice(0, 40)}).`);
  const action: WidgetRule['action'] = { type: 'invitation', text: text(`${where}.text`, raw.text, MAX_INVITATION_TEXT).trim() };
  if (raw.department_id !== undefined && raw.department_id !== null) {
    if (typeof raw.department_id !== 'number' || !Number.isInteger(raw.department_id) || raw.department_id < 1 || raw.department_id > MAX_ID) {
      throw invalid(`${where}.department_id must be the id of a department (got ${JSON.stringify(raw.department_id)?.slice(0, 40)}).`);
    }
    action.department_id = raw.department_id;
  }
  return action;
}

function cleanRule(raw: unknown, i: number, seen: Set<string>): WidgetRule {
  const where = `rules[${i}]`;
  if (!isRec(raw)) throw invalid(`${where} must be an object {id, conditions, action}.`);
  onlyKeys(where, raw, ['id', 'conditions', 'action']);
  const id = raw.id;
  const idOk = (typeof id === 'string' && id.trim() !== '' && id.length <= 100) || (typeof id === 'number' && Number.isInteger(id));
  if (!idOk) throw invalid(`${where}.id must be a non-empty string of at most 100 characters (or a whole number).`);
  if (seen.has(String(id))) throw invalid(`${where}.id "${String(id).slice(0, 40)}" is used by an earlier rule; ids must be unique.`);
  seen.add(String(id));
  return { id, conditions: cleanConditions(`${where}.conditions`, raw.conditions), action: cleanAction(`${where}.action`, raw.action) };
}

/** The rules in their stored shape, or null (clears them). Department ids must name departments of the account. */
export async function cleanWidgetRules(db: Executor, accountId: number, value: unknown): Promise<WidgetRules | null> {
  if (value === null) return null;
  let list: unknown;
  if (Array.isArray(value)) list = value;
  else if (isRec(value)) {
    onlyKeys('rules', value, ['rules']);
    list = value.rules;
  }
  if (!Array.isArray(list)) throw invalid('rules must be an object {rules: [...]} as docs/WIDGET.md describes (or null to clear them).');
  if (list.length > MAX_RULES) throw invalid(`rules may hold at most ${MAX_RULES} rules (got ${list.length}).`);
  const seen = new Set<string>();
  const rules = list.map((r, i) => cleanRule(r, i, seen));
  const departments = [...new Set(rules.map((r) => r.action.department_id).filter((d): d is number => d !== undefined))];
  if (departments.length > 0) {
    const found = await db.selectFrom('departments').select('id').where('account_id', '=', accountId).where('id', 'in', departments).execute();
    const known = new Set(found.map((d) => d.id));
    const missing = departments.filter((d) => !known.has(d));
    if (missing.length > 0)
      throw invalid(`action.department_id must name departments of this account; ${missing.slice(0, 10).join(', ')} ${missing.length > 1 ? 'are' : 'is'} not.`);
  }
  return { rules };
}
