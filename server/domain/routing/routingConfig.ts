/**
 * The routing settings that decide a chat's offers: the account's mode,
 * timeout and department wait (routing_settings; no row = manual, the
 * defaults), and the mode of the chat's department (departments.routing_mode,
 * null = the account's). One primary-key read for a chat without a department,
 * two with one.
 */
import type { Executor } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import { DEFAULT_EVERYONE_AFTER_SECONDS, DEFAULT_OFFER_TIMEOUT_SECONDS, storedMode, type RoutingMode } from './modes.js';

export interface AccountRouting {
  mode: RoutingMode;
  offer_timeout_seconds: number;
  /** null = a department's chat is never offered to everyone. */
  everyone_after_seconds: number | null;
}

export const DEFAULT_ROUTING: AccountRouting = {
  mode: 'manual',
  offer_timeout_seconds: DEFAULT_OFFER_TIMEOUT_SECONDS,
  everyone_after_seconds: DEFAULT_EVERYONE_AFTER_SECONDS,
};

// Read in every new chat's transaction, whatever the mode: built once (db/prepared.ts).
const settingsRow = prepared(['accountId'], (db, p: { accountId: number }) =>
  db.selectFrom('routing_settings').select(['mode', 'offer_timeout_seconds', 'everyone_after_seconds']).where('account_id', '=', p.accountId),
);
const departmentMode = prepared(['departmentId', 'accountId'], (db, p: { departmentId: number; accountId: number }) =>
  db.selectFrom('departments').select('routing_mode').where('id', '=', p.departmentId).where('account_id', '=', p.accountId),
);

export async function accountRouting(db: Executor, accountId: number): Promise<AccountRouting> {
  const row = await settingsRow.first(db, { accountId });
  return row ? { ...row, mode: storedMode(row.mode) } : DEFAULT_ROUTING;
}

export interface ChatRouting extends AccountRouting {
  /** The mode among the department's agents (its own, else the account's); the account's when there is no department. */
  department_mode: RoutingMode;
}

export async function chatRouting(db: Executor, accountId: number, departmentId: number | null): Promise<ChatRouting> {
  const account = await accountRouting(db, accountId);
  if (departmentId === null) return { ...account, department_mode: account.mode };
  const department = await departmentMode.first(db, { departmentId, accountId });
  return { ...account, department_mode: department?.routing_mode ? storedMode(department.routing_mode) : account.mode };
}
