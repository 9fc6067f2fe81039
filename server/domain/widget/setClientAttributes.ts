/**
 * setClientAttributes (older revisions of the widget API): free key/value
 * pairs about the visitor, merged into the session for agents to read.
 * At most 50 keys; keys up to 100 characters; values strings (cut to 1000),
 * finite numbers or booleans. Anything else is refused as a whole.
 */
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import type { Visitor } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { cutText } from '../messages/normalizeMessage.js';
import { readSession, writeSession, type ClientAttributes } from './session.js';
import { lockVisitor } from './visitorAccess.js';

export const MAX_ATTRIBUTES = 50;

export function cleanAttributes(raw: unknown): ClientAttributes {
  const problem = invalid(`attributes must be an object of at most ${MAX_ATTRIBUTES} keys whose values are strings, numbers or booleans.`);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw problem;
  const out: ClientAttributes = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === '' || key.length > 100) throw problem;
    if (typeof value === 'string') out[key] = cutText(value);
    else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') out[key] = value;
    else throw problem;
  }
  return out;
}

export async function setClientAttributes(ctx: AppContext, input: { visitor: Visitor; attributes: unknown }): Promise<void> {
  const attributes = cleanAttributes(input.attributes);
  const now = ctx.clock();
  await inTransaction(ctx.db, async (tx) => {
    const visitor = await lockVisitor(tx, input.visitor.id, now);
    const session = readSession(visitor);
    const merged = { ...(session.attributes ?? {}), ...attributes };
    if (Object.keys(merged).length > MAX_ATTRIBUTES) throw invalid(`A visitor may have at most ${MAX_ATTRIBUTES} attributes.`);
    await writeSession(tx, visitor.id, { ...session, attributes: merged }, now);
  });
}
