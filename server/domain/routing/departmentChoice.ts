/**
 * The widget's department choice (docs/ROUTING.md): a widget option
 * (`department_choice` in channels.options_json; absent = off) saying whether
 * the visitor picks a department before the first message, and the
 * departments offered with their names in the widget's languages
 * (departments.names_json). Read by the widget's session and checked when a
 * visitor's message opens a chat.
 */
import type { Executor } from '../../db/database.js';
import type { Channel } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import type { DepartmentChoiceDto } from '../../../protocol/routing.js';
import type { WidgetDepartment } from '../../../protocol/widget.js';
import { widgetOptions } from '../channels/channelInput.js';

export const DEPARTMENT_CHOICES = ['off', 'optional', 'required'] as const satisfies readonly DepartmentChoiceDto[];
export type DepartmentChoice = DepartmentChoiceDto;

export function departmentChoice(channel: Pick<Channel, 'options_json'>): DepartmentChoice {
  const value = widgetOptions(channel).department_choice;
  return value === 'optional' || value === 'required' ? value : 'off';
}

/** A stored names_json as language → name (only string values). */
export function departmentNames(json: string | null): Record<string, string> {
  const parsed = parseJson<unknown>(json, {});
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** The departments a widget offers (every department of the account, by name), with their names per language. */
export async function widgetDepartments(db: Executor, accountId: number): Promise<WidgetDepartment[]> {
  const rows = await db.selectFrom('departments').select(['id', 'name', 'names_json']).where('account_id', '=', accountId).orderBy('name').execute();
  return rows.map((d) => ({ id: d.id, name: d.name, names: departmentNames(d.names_json) }));
}
