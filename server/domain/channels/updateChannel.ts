/**
 * An admin changes a channel of its account. chat_api: name, webhook_url,
 * chunked, agent_ids, and `rotate_secret:true` for a new path secret (the old
 * endpoint URL stops working at once). widget: name, agent_ids, color,
 * allowed_domains, hide_launcher, appearance (the fields sent), enabled (false takes the widget off the
 * pages showing it: their visitor sockets close as its channel.changed arrives), identity_verification
 * (true issues a secret if there is none, false removes it) and
 * `rotate_identity_secret:true` for a new one.
 * Fields of the other type are refused; null clears
 * color, allowed_domains and agent_ids (agent_ids null or [] = every agent).
 * The chat channel's cache forgets the channel once the change commits; a
 * channel.changed event in its transaction makes open agent streams follow
 * it (an agent added sees the channel's chats at once, one removed no longer).
 */
import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.js';
import { commit } from '../../events/outbox.js';
import type { ChannelsTable } from '../../db/schema.js';
import { bool, toJson } from '../../lib/json.js';
import { randomToken } from '../../lib/ids.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { cleanName } from '../agents/agentInput.js';
import { forgetChatChannel } from '../chatChannel/findChannel.js';
import {
  applyIdentitySecret,
  checkAgentIds,
  cleanColor,
  cleanDomains,
  cleanWebhookUrl,
  refuseForeignFields,
  setChannelAgents,
  widgetOptions,
  type ChannelFields,
} from './channelInput.js';
import { applyAppearance, readAppearance } from '../../model/appearance.js';
import { SECRET_BYTES } from './createChannel.js';
import { recordChannelChanged } from './channelChanged.js';
import { findChannel, type ChannelWithAgents } from './listChannels.js';

export async function updateChannel(ctx: AppContext, input: { actor: Actor; id: number; fields: ChannelFields }): Promise<ChannelWithAgents> {
  const { actor, id, fields } = input;
  assertAdmin(actor);
  const now = ctx.clock();

  const updated = await commit(ctx.db, ctx.signals, async (tx) => {
    const { channel } = await findChannel(tx, actor.account_id, id);
    refuseForeignFields(channel.type, fields);
    const set: Updateable<ChannelsTable> = {};
    if (fields.name !== undefined) set.name = cleanName(fields.name);
    if (fields.webhook_url !== undefined) set.webhook_url = cleanWebhookUrl(ctx.config, fields.webhook_url);
    if (fields.chunked !== undefined) set.chunked = bool(fields.chunked);
    if (fields.rotate_secret === true) set.secret = randomToken(SECRET_BYTES);
    const identity = fields.identity_verification !== undefined || fields.rotate_identity_secret !== undefined;
    const widget = fields.color !== undefined || fields.allowed_domains !== undefined || fields.hide_launcher != null || fields.enabled != null;
    if (widget || identity) {
      const options = widgetOptions(channel);
      if (fields.hide_launcher != null) options.hide_launcher = fields.hide_launcher;
      if (fields.enabled != null) options.enabled = fields.enabled;
      if (fields.color !== undefined) options.color = cleanColor(fields.color);
      if (fields.allowed_domains !== undefined) options.allowed_domains = cleanDomains(fields.allowed_domains);
      if (identity) applyIdentitySecret(options, fields);
      set.options_json = toJson(options);
    }
    if (fields.appearance != null) set.appearance_json = toJson(applyAppearance(readAppearance(channel), fields.appearance));
    const agentIds = fields.agent_ids === undefined ? null : await checkAgentIds(tx, actor.account_id, fields.agent_ids);

    await tx
      .updateTable('channels')
      .set({ ...set, updated_at: now })
      .where('id', '=', id)
      .where('account_id', '=', actor.account_id)
      .execute();
    if (agentIds !== null) await setChannelAgents(tx, actor.account_id, id, agentIds);
    await recordChannelChanged(tx, actor.account_id, id, 'updated', now);
    return findChannel(tx, actor.account_id, id);
  });
  forgetChatChannel(ctx, updated.channel.public_id);
  return updated;
}
