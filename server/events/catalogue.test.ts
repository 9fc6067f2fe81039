/**
 * docs/EVENTS.md and the code stay equal: the table under "### The event
 * catalogue" lists every field of every event's payload as catalogue.ts
 * describes it, and "## Events" has one section per event_name the event
 * webhooks send. On a difference the failure says which rows or sections to
 * add, remove or change. Also: decodeEvent, the one place stored JSON becomes
 * a typed event, keeps catalogued names and drops others.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_NAMES } from '../presenters/webhook/events.js';
import { decodeEvent, EVENT_CATALOGUE, EVENT_TYPES } from './catalogue.js';

const docPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/EVENTS.md');
const doc = fs.readFileSync(docPath, 'utf8');

/** The catalogue as table rows: `| \`event\` | \`field\` | always/optional | content |`. */
function codeRows(): string[] {
  return EVENT_TYPES.flatMap((type) => {
    const fields: Record<string, { doc: string; optional?: true }> = EVENT_CATALOGUE[type];
    return Object.entries(fields).map(([field, spec]) => `| \`${type}\` | \`${field}\` | ${spec.optional ? 'optional' : 'always'} | ${spec.doc} |`);
  });
}

function docRows(): string[] {
  const section = (doc.split(/^### The event catalogue\s*$/m)[1] ?? '').split(/^#{2,3} /m)[0];
  return section
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^\|\s*`/.test(line))
    .map((line) =>
      line
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim())
        .join(' | '),
    )
    .map((line) => `| ${line} |`);
}

describe('event catalogue', () => {
  it('is listed exactly in docs/EVENTS.md', () => {
    const inCode = codeRows();
    const inDoc = docRows();
    const problems: string[] = [];
    const missing = inCode.filter((row) => !inDoc.includes(row));
    if (missing.length > 0) problems.push(`Add (or correct) these rows of the table under "### The event catalogue" in docs/EVENTS.md:\n${missing.join('\n')}`);
    const extra = inDoc.filter((row) => !inCode.includes(row));
    if (extra.length > 0) problems.push(`Remove these rows from docs/EVENTS.md (server/events/catalogue.ts has no such field):\n${extra.join('\n')}`);
    if (problems.length === 0 && inDoc.join('\n') !== inCode.join('\n'))
      problems.push(`Order the rows of docs/EVENTS.md's catalogue as the code does:\n${inCode.join('\n')}`);
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  it('documents every event_name the event webhooks send, once each', () => {
    const section = (doc.split(/^## Events\s*$/m)[1] ?? '').split(/^## /m)[0];
    const documented = [...section.matchAll(/^### ([a-z_]+) —/gm)].map((m) => m[1]);
    const problems: string[] = [];
    const missing = WEBHOOK_EVENT_NAMES.filter((name) => !documented.includes(name));
    if (missing.length > 0)
      problems.push(`Add a section "### <event_name> — <when it is sent>" under "## Events" in docs/EVENTS.md for: ${missing.join(', ')}`);
    const known: readonly string[] = WEBHOOK_EVENT_NAMES;
    const extra = documented.filter((name) => !known.includes(name));
    if (extra.length > 0) problems.push(`Remove these sections from docs/EVENTS.md (no webhook sends them): ${extra.join(', ')}`);
    if (new Set(documented).size !== documented.length) problems.push('docs/EVENTS.md documents an event_name twice.');
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  it('lists every catalogued event in EVENT_TYPES, once', () => {
    expect([...EVENT_TYPES].sort()).toEqual(Object.keys(EVENT_CATALOGUE).sort());
  });

  it('decodes a stored event of a catalogued name, and drops others', () => {
    const position = { id: 1, account_id: 2, chat_id: 3, channel_id: 4, seq: 5, created_at: 6 };
    const data = { chat_id: 3, author: 'agent', agent_id: 7, typing: true };
    expect(decodeEvent(position, 'typing', data)).toEqual({ ...position, type: 'typing', data });
    expect(decodeEvent(position, 'chat.deleted', data)).toBeNull();
    expect(decodeEvent(position, 'toString', data)).toBeNull();
    expect(decodeEvent(position, 'typing', null)).toBeNull();
    expect(decodeEvent(position, 'typing', [data])).toBeNull();
  });
});
