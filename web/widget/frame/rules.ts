/**
 * Active-invitation rules (svc_api.setRules, or the account's settings.rules):
 *   {rules: [{id, conditions: {seconds_on_page?, url_contains?, url_matches?, min_visits?},
 *             action: {type: 'invitation', text, department_id?}}]}
 * All conditions of a rule must hold; the first rule (in list order) whose
 * conditions hold shows its invitation, at most once per page view. Invalid
 * rules are skipped with a console warning. docs/WIDGET.md describes the format.
 */

export interface RuleConditions {
  seconds_on_page?: number;
  url_contains?: string;
  url_matches?: string;
  min_visits?: number;
}

export interface InvitationRule {
  id: string;
  conditions: RuleConditions;
  action: { type: 'invitation'; text: string; department_id?: number };
}

export interface RuleContext {
  url: string;
  /** When the page view started (epoch ms). */
  started: number;
  visits: number;
}

type Rec = Record<string, unknown>;
/** How soon a rule that matched while the visitor was busy is looked at again. */
const RETRY_MS = 5000;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown, max: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= max;

/** Why one rule is invalid, or null. */
function ruleError(r: unknown): string | null {
  if (!isRec(r)) return 'a rule must be an object';
  const c = r.conditions ?? {};
  if (!isRec(c)) return 'conditions must be an object';
  if (c.seconds_on_page !== undefined && !isCount(c.seconds_on_page, 86_400)) return 'seconds_on_page must be a number of seconds from 0 to 86400';
  if (c.min_visits !== undefined && !isCount(c.min_visits, 1e6)) return 'min_visits must be a number from 0';
  if (c.url_contains !== undefined && typeof c.url_contains !== 'string') return 'url_contains must be a string';
  if (c.url_matches !== undefined) {
    if (typeof c.url_matches !== 'string' || c.url_matches.length > 500) return 'url_matches must be a regular expression string';
    try {
      new RegExp(c.url_matches);
    } catch {
      return 'url_matches is not a valid regular expression';
    }
  }
  const a = r.action;
  if (!isRec(a) || a.type !== 'invitation') return "action must be {type: 'invitation', text}";
  if (typeof a.text !== 'string' || !a.text.trim()) return 'action.text must be a non-empty string';
  if (a.department_id !== undefined && a.department_id !== null && typeof a.department_id !== 'number') return 'action.department_id must be a number';
  return null;
}

/** The valid rules of a rules object (or of a bare array of rules), in order. */
export function parseRules(input: unknown): InvitationRule[] {
  const list = Array.isArray(input) ? input : isRec(input) && Array.isArray(input.rules) ? input.rules : null;
  if (!list) {
    if (input != null) console.warn('Parley widget: rules must be an object {rules: [...]}; see docs/WIDGET.md');
    return [];
  }
  const out: InvitationRule[] = [];
  list.forEach((r: unknown, i: number) => {
    const error = ruleError(r);
    if (error) return console.warn(`Parley widget: rule ${i} skipped: ${error}`);
    const rec = r as Rec;
    const a = rec.action as Rec;
    out.push({
      id: typeof rec.id === 'string' || typeof rec.id === 'number' ? String(rec.id) : String(i),
      conditions: rec.conditions ?? {},
      action: { type: 'invitation', text: (a.text as string).trim(), ...(typeof a.department_id === 'number' ? { department_id: a.department_id } : {}) },
    });
  });
  return out;
}

/** Whether the conditions that do not depend on time hold. */
function holds(c: RuleConditions, ctx: RuleContext): boolean {
  if (c.url_contains !== undefined && !ctx.url.includes(c.url_contains)) return false;
  if (c.url_matches !== undefined && !new RegExp(c.url_matches).test(ctx.url)) return false;
  if (c.min_visits !== undefined && ctx.visits < c.min_visits) return false;
  return true;
}

/**
 * Runs the rules of one page view: checks now, and again when a
 * seconds_on_page threshold is reached (or check() is called: new rules, a
 * new URL). `show` returns false when the invitation cannot be shown now (the
 * visitor is busy chatting); the rule may then match on a later check.
 */
export class RuleRunner {
  private rules: InvitationRule[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private done = false;

  constructor(
    private readonly context: () => RuleContext,
    private readonly show: (rule: InvitationRule) => boolean,
  ) {}

  set(input: unknown): void {
    this.rules = parseRules(input);
    this.check();
  }

  /** No more invitations on this page view. */
  finish(): void {
    this.done = true;
    clearTimeout(this.timer);
  }

  check(): void {
    clearTimeout(this.timer);
    if (this.done) return;
    const ctx = this.context();
    const now = Date.now();
    let next = Infinity;
    for (const rule of this.rules) {
      if (!holds(rule.conditions, ctx)) continue;
      const at = ctx.started + (rule.conditions.seconds_on_page ?? 0) * 1000;
      if (at > now) next = Math.min(next, at);
      else if (this.show(rule)) return this.finish();
      else next = Math.min(next, now + RETRY_MS); // declined (the visitor is busy): look again later
    }
    if (next !== Infinity) this.timer = setTimeout(() => this.check(), next - now + 5);
  }
}
