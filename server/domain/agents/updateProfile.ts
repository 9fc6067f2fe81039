/**
 * A signed-in person changes its own profile (PATCH /api/v1/me): name,
 * phone, language (of the agent app; null = the browser's), and photo_url (a link, http or https, as the spec's sender.photo;
 * null clears it; an uploaded photo is set by setAgentPhoto.ts). Role, e-mail and activity stay the admin's to change;
 * the password has its own route (PUT /api/v1/me/password).
 */
import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Agent, AgentsTable } from '../../db/schema.js';
import { AGENT_LANGUAGES } from '../../../protocol/agent.js';
import { invalid } from '../../errors/AppError.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { presentAgent } from '../../presenters/agent.js';
import { cleanName, cleanPhone } from './agentInput.js';
import { releasePhotos, uploadNameOf } from './setAgentPhoto.js';

export interface ProfileChanges {
  name?: string;
  phone?: string | null;
  photo_url?: string | null;
  language?: string | null;
}

/** A BCP 47 tag whose language the agent app speaks (`pt-BR` → `pt`), or null (follow the browser). */
export function cleanLanguage(value: string | null): string | null {
  if (value === null || value.trim() === '') return null;
  const primary = value.trim().toLowerCase().split(/[-_]/)[0];
  const known = AGENT_LANGUAGES.find((l) => l === primary);
  if (!known) throw invalid(`language must be one of ${AGENT_LANGUAGES.join(', ')} (a BCP 47 tag such as "de"), or null to follow the browser.`);
  return known;
}

export function cleanPhotoUrl(value: string | null): string | null {
  if (value === null || value.trim() === '') return null;
  const url = value.trim();
  let ok: boolean;
  try {
    const u = new URL(url);
    ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    ok = false;
  }
  if (!ok || url.length > 2000) throw invalid('photo_url must be an http:// or https:// link to an image (at most 2000 characters), or null.');
  return url;
}

export async function updateProfile(ctx: AppContext, input: { agentId: number; accountId: number; changes: ProfileChanges }): Promise<Agent> {
  const { changes } = input;
  const set: Updateable<AgentsTable> = {};
  if (changes.name !== undefined) set.name = cleanName(changes.name);
  if (changes.phone !== undefined) set.phone = cleanPhone(changes.phone);
  if (changes.photo_url !== undefined) set.photo_url = cleanPhotoUrl(changes.photo_url);
  if (changes.language !== undefined) set.language = cleanLanguage(changes.language);
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    const agent = await tx
      .updateTable('agents')
      .set({ ...set, updated_at: now })
      .where('id', '=', input.agentId)
      .where('account_id', '=', input.accountId)
      .returningAll()
      .executeTakeFirstOrThrow();
    // A link (or none) in place of an uploaded photo: the upload is no longer kept (unless the link is that upload).
    if (set.photo_url !== undefined) await releasePhotos(tx, agent.id, uploadNameOf(ctx, agent.photo_url));
    await recordEvent(tx, { accountId: input.accountId, type: 'agent.updated', data: { agent: presentAgent(agent) } }, now);
    return agent;
  });
}
