/**
 * The triggers editor's model (pure): an invitation rule of docs/WIDGET.md as
 * the form edits it (strings, empty = condition not used) and back. The
 * server checks the rules again and names the first problem.
 */
import { t } from './i18n';
import type { WidgetRuleDto, WidgetRulesDto } from '../../../protocol/agent';

export interface RuleDraft {
  /** Stable React key (ids can be edited). */
  key: number;
  id: string;
  text: string;
  seconds: string;
  contains: string;
  matches: string;
  visits: string;
  department: string;
}

let nextKey = 1;

const str = (n: number | undefined) => (n === undefined ? '' : String(n));

export function toDrafts(rules: WidgetRulesDto | null | undefined): RuleDraft[] {
  return (rules?.rules ?? []).map((r) => ({
    key: nextKey++,
    id: String(r.id),
    text: r.action.text,
    seconds: str(r.conditions.seconds_on_page),
    contains: r.conditions.url_contains ?? '',
    matches: r.conditions.url_matches ?? '',
    visits: str(r.conditions.min_visits),
    department: str(r.action.department_id),
  }));
}

/** A new rule with an id no other rule has. */
export function newDraft(existing: RuleDraft[]): RuleDraft {
  const ids = new Set(existing.map((d) => d.id));
  let n = existing.length + 1;
  while (ids.has(`rule-${n}`)) n += 1;
  return { key: nextKey++, id: `rule-${n}`, text: '', seconds: '', contains: '', matches: '', visits: '', department: '' };
}

/** A number field: empty = not used; anything else is sent as typed, for the server to judge. */
function num(value: string): number | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

export function toRule(d: RuleDraft): WidgetRuleDto {
  const conditions: WidgetRuleDto['conditions'] = {};
  const seconds = num(d.seconds);
  if (seconds !== undefined) conditions.seconds_on_page = seconds;
  if (d.contains.trim() !== '') conditions.url_contains = d.contains.trim();
  if (d.matches.trim() !== '') conditions.url_matches = d.matches.trim();
  const visits = num(d.visits);
  if (visits !== undefined) conditions.min_visits = visits;
  const department = num(d.department);
  const action: WidgetRuleDto['action'] = { type: 'invitation', text: d.text };
  if (department !== undefined) action.department_id = department;
  return { id: d.id.trim(), conditions, action };
}

/** What PUT /settings gets: the rules, or null when there are none. */
export function toRules(drafts: RuleDraft[]): WidgetRulesDto | null {
  return drafts.length === 0 ? null : { rules: drafts.map(toRule) };
}

/** A pattern the browser cannot compile, said before saving; null when fine. */
export function patternProblem(pattern: string): string | null {
  if (pattern.trim() === '') return null;
  try {
    new RegExp(pattern.trim());
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : t('workspace.triggers.notRegex');
  }
}
