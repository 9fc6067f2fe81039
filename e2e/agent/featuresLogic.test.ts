/**
 * Pure logic of the agent app's canned responses and triggers editor, without
 * a browser: where a `/query` is being typed, which responses match it, what
 * an insertion gives, and the trigger drafts ↔ docs/WIDGET.md rules.
 */
import { describe, expect, it } from 'vitest';
import { insertCanned, matchCanned, slashQueryAt } from '../../web/agent/src/canned.js';
import { newDraft, patternProblem, toDrafts, toRules } from '../../web/agent/src/triggers.js';
import type { CannedResponseDto, WidgetRulesDto } from '../../protocol/agent.js';

const canned = (id: number, shortcut: string, title: string, text = `${shortcut} text`): CannedResponseDto => ({
  id,
  shortcut,
  title,
  text,
  created_at: 1,
  updated_at: 1,
});

describe('canned responses in the composer', () => {
  it('sees a /query at the start or after a space, up to the caret only', () => {
    expect(slashQueryAt('/', 1)).toEqual({ start: 0, end: 1, query: '' });
    expect(slashQueryAt('Hi /Ref', 7)).toEqual({ start: 3, end: 7, query: 'ref' });
    expect(slashQueryAt('Hi\n/ref and more', 7)).toEqual({ start: 3, end: 7, query: 'ref' });
    expect(slashQueryAt('and/or', 6)).toBeNull();
    expect(slashQueryAt('/ref done', 9)).toBeNull();
    expect(slashQueryAt('/ref done', 4)).toEqual({ start: 0, end: 4, query: 'ref' });
    expect(slashQueryAt('https://x', 9)).toBeNull();
  });

  it('lists shortcut prefixes first, then shortcut or title matches, each by shortcut', () => {
    const all = [canned(1, 'thanks', 'Refund thanks'), canned(2, 'refund', 'Refunds'), canned(3, 'ref-late', 'Late refund'), canned(4, 'hello', 'Hi')];
    expect(matchCanned(all, 'ref').map((c) => c.shortcut)).toEqual(['ref-late', 'refund', 'thanks']);
    expect(matchCanned(all, '').map((c) => c.shortcut)).toEqual(['hello', 'ref-late', 'refund', 'thanks']);
    expect(matchCanned(all, 'zzz')).toEqual([]);
  });

  it('replaces the /query with the text and puts the caret after it', () => {
    const text = 'Hi /ref, bye';
    const at = slashQueryAt(text, 7)!;
    expect(insertCanned(text, at, canned(1, 'refund', 'R', 'Refunds take 5 days.'))).toEqual({ text: 'Hi Refunds take 5 days., bye', caret: 23 });
  });
});

describe('triggers editor model', () => {
  const rules: WidgetRulesDto = {
    rules: [
      {
        id: 'a',
        conditions: { seconds_on_page: 0, url_contains: '/p', url_matches: '^x', min_visits: 3 },
        action: { type: 'invitation', text: 'Hi', department_id: 4 },
      },
      { id: 7, conditions: {}, action: { type: 'invitation', text: 'Yo' } },
    ],
  };

  it('round-trips the rules through drafts, ids as strings, empty fields left out', () => {
    const drafts = toDrafts(rules);
    expect(drafts[0]).toMatchObject({ id: 'a', seconds: '0', contains: '/p', matches: '^x', visits: '3', department: '4' });
    expect(toRules(drafts)).toEqual({ rules: [rules.rules[0], { ...rules.rules[1], id: '7' }] });
    expect(toRules([])).toBeNull();
    expect(toDrafts(null)).toEqual([]);
  });

  it('gives new rules unused ids and says when a pattern does not compile', () => {
    const drafts = toDrafts({ rules: [{ id: 'rule-2', conditions: {}, action: { type: 'invitation', text: 'x' } }] });
    expect(newDraft(drafts).id).toBe('rule-3');
    expect(patternProblem('')).toBeNull();
    expect(patternProblem('^a+$')).toBeNull();
    expect(patternProblem('(')).toMatch(/Invalid regular expression/);
  });
});
