/**
 * Test support: checks an event webhook body against its documented keys
 * (server/presenters/webhook/keys.ts, the same tables as docs/EVENTS.md):
 * no undocumented key, every `always` key present, and no null but the two
 * the spec names (user_token, chat.rate). Used by the doc test on built
 * bodies and by the HTTP tests on what a real receiver got.
 */
import { NULL_ALLOWED, WEBHOOK_KEYS, WEBHOOK_OBJECT_KEYS } from '../../server/presenters/webhook/keys.js';

type Docs = Record<string, { doc: string; absent?: string }>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const objectDocs: Record<string, Docs> = WEBHOOK_OBJECT_KEYS;
const eventDocs: Record<string, Docs> = WEBHOOK_KEYS;
const nullAllowed: readonly string[] = NULL_ALLOWED;

function keyProblems(where: string, value: Record<string, unknown>, docs: Docs): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(value)) if (!Object.hasOwn(docs, key)) problems.push(`${where}: key "${key}" is not documented`);
  for (const [key, doc] of Object.entries(docs)) if (!doc.absent && !Object.hasOwn(value, key)) problems.push(`${where}: key "${key}" is missing`);
  return problems;
}

/** Every object inside the body by its path (`chat.messages[]` for the items of an array), and every null's path. */
function walk(value: unknown, path: string, out: { objects: Array<[string, Record<string, unknown>]>; nulls: string[] }): void {
  if (value === null) out.nulls.push(path);
  else if (Array.isArray(value)) value.forEach((item) => walk(item, `${path}[]`, out));
  else if (isRecord(value)) {
    if (path !== '') out.objects.push([path, value]);
    for (const [key, item] of Object.entries(value)) walk(item, path === '' ? key : `${path}.${key}`, out);
  }
}

/** What is wrong with a body, in words; empty when it is as documented. */
export function bodyProblems(body: unknown): string[] {
  if (!isRecord(body) || typeof body.event_name !== 'string' || !Object.hasOwn(eventDocs, body.event_name)) {
    return [`not an event webhook body: ${JSON.stringify(body).slice(0, 200)}`];
  }
  const name = body.event_name;
  const problems = keyProblems(name, body, eventDocs[name]);
  const found = { objects: [] as Array<[string, Record<string, unknown>]>, nulls: [] as string[] };
  walk(body, '', found);
  for (const [path, value] of found.objects) {
    if (Object.hasOwn(objectDocs, path)) problems.push(...keyProblems(`${name} ${path}`, value, objectDocs[path]));
  }
  for (const path of found.nulls) if (!nullAllowed.includes(path)) problems.push(`${name}: ${path} is null`);
  return problems;
}

/** The keys seen per documented object path, over several bodies. */
export function objectKeysSeen(bodies: unknown[]): Map<string, Set<string>> {
  const seen = new Map<string, Set<string>>();
  for (const body of bodies) {
    const found = { objects: [] as Array<[string, Record<string, unknown>]>, nulls: [] as string[] };
    walk(body, '', found);
    for (const [path, value] of found.objects) {
      if (!Object.hasOwn(objectDocs, path)) continue;
      const keys = seen.get(path) ?? new Set<string>();
      for (const key of Object.keys(value)) keys.add(key);
      seen.set(path, keys);
    }
  }
  return seen;
}
