/**
 * An admin adds a channel (spec: Manage → Add Channels). A chat_api channel
 * gets a public id and a path secret of 192 random bits, which together form
 * its endpoint URL; it needs the webhook_url agent replies go to. A widget
 * channel gets a widget id (its public id) and keeps its options in
 * options_json (with an identity secret when identity_verification is on).
 * Both may be assigned agents (none = every agent). A channel.changed event
 * in the same transaction makes open agent streams show its chats at once.
 */
import { DEFAULT_APPEARANCE } from '../../../protocol/widget.js';
import { applyAppearance } from '../../model/appearance.js';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { commit } from '../../events/outbox.js';
import { bool, toJson } from '../../lib/json.js';
import { randomPublicId, randomToken } from '../../lib/ids.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { cleanName } from '../agents/agentInput.js';
import { forgetChatChannel } from '../chatChannel/findChannel.js';
import * as rules from './channelInput.js';
import type { ChannelFields, ChannelType, WidgetOptions } from './channelInput.js';
import { recordChannelChanged } from './channelChanged.js';
import type { ChannelWithAgents } from './listChannels.js';

/** Bytes of the path secret: 24 bytes = 192 bits, 32 URL-safe characters. */
export const SECRET_BYTES = 24;

export async function createChannel(
  ctx: AppContext,
  input: { actor: Actor; type: ChannelType; fields: Omit<ChannelFields, 'rotate_secret' | 'rotate_identity_secret'> },
): Promise<ChannelWithAgents> {
  const { actor, type, fields } = input;
  assertAdmin(actor);
  rules.refuseForeignFields(type, fields);
  const name = cleanName(fields.name ?? '');
  const isChatChannel = type === 'chat_api';
  const webhookUrl = isChatChannel ? rules.cleanWebhookUrl(ctx.config, fields.webhook_url) : null;
  const options: WidgetOptions = isChatChannel
    ? {}
    : { color: rules.cleanColor(fields.color ?? null), allowed_domains: rules.cleanDomains(fields.allowed_domains ?? null) };
  if (!isChatChannel) rules.applyIdentitySecret(options, { identity_verification: fields.identity_verification });
  if (!isChatChannel && fields.hide_launcher === true) options.hide_launcher = true;
  if (!isChatChannel && fields.enabled === false) options.enabled = false;
  const now = ctx.clock();

  const created = await commit(ctx.db, ctx.signals, async (tx) => {
    const agentIds = await rules.checkAgentIds(tx, actor.account_id, fields.agent_ids ?? null);
    const channel = await tx
      .insertInto('channels')
      .values({
        account_id: actor.account_id,
        type,
        name,
        public_id: await unusedPublicId(tx),
        secret: isChatChannel ? randomToken(SECRET_BYTES) : null,
        webhook_url: webhookUrl,
        chunked: bool(isChatChannel && fields.chunked === true),
        options_json: toJson(options),
        ...(!isChatChannel && fields.appearance ? { appearance_json: toJson(applyAppearance(DEFAULT_APPEARANCE, fields.appearance)) } : {}),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await rules.setChannelAgents(tx, actor.account_id, channel.id, agentIds);
    await recordChannelChanged(tx, actor.account_id, channel.id, 'created', now);
    return { channel, agentIds };
  });
  // Misses are never cached: only a channel deleted elsewhere within the cache's TTL could have left this id there.
  forgetChatChannel(ctx, created.channel.public_id);
  return created;
}

/** A fresh public id (12 characters of [a-z0-9]; a clash is astronomically unlikely, but checked). */
export async function unusedPublicId(db: Executor): Promise<string> {
  for (;;) {
    const id = randomPublicId();
    const taken = await db.selectFrom('channels').select('id').where('public_id', '=', id).executeTakeFirst();
    if (!taken) return id;
  }
}
