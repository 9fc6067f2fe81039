/**
 * Channels as the admin API shows them (/openapi.json), one shape per type.
 * A chat_api channel shows its endpoint URLs (the path secret is the
 * customer's credential, so only admins see them); a widget channel shows
 * its install snippet and its identity secret (the key customers sign user
 * tokens with; the channels API is admin-only). Nothing else of the row is shown.
 * Agents know a channel by its id, type and name only (presentChannelRef).
 */
import type { Channel } from '../db/schema.js';
import { readAppearance } from '../model/appearance.js';
import { widgetOptions } from '../model/widgetOptions.js';
import type { ChatChannelDto, WidgetChannelDto, ChannelDto, ChannelRefDto } from '../../protocol/agent.js';
export type { ChatChannelDto, WidgetChannelDto, ChannelDto, ChannelRefDto };

/** `{base_url}/<random_string>/<CHANNEL_PUBLIC_ID>`, where base_url is PUBLIC_URL + /wh. */
export function channelEndpointUrl(publicUrl: string, c: Pick<Channel, 'secret' | 'public_id'>): string {
  return `${publicUrl}/wh/${c.secret ?? ''}/${c.public_id}`;
}

export function presentChatChannel(c: Channel, agentIds: number[], publicUrl: string): ChatChannelDto {
  const endpoint = channelEndpointUrl(publicUrl, c);
  return {
    id: c.id,
    type: 'chat_api',
    name: c.name,
    public_id: c.public_id,
    endpoint_url: endpoint,
    status_url: `${endpoint}/status`,
    webhook_url: c.webhook_url,
    chunked: c.chunked === 1,
    agent_ids: agentIds,
  };
}

export function presentWidgetChannel(c: Channel, agentIds: number[], publicUrl: string): WidgetChannelDto {
  const scriptUrl = `${publicUrl}/widget/${c.public_id}.js`;
  const options = widgetOptions(c);
  return {
    id: c.id,
    type: 'widget',
    name: c.name,
    widget_id: c.public_id,
    script_url: scriptUrl,
    install_snippet: `<script src="${scriptUrl}" async></script>`,
    agent_ids: agentIds,
    color: typeof options.color === 'string' ? options.color : null,
    allowed_domains: Array.isArray(options.allowed_domains) ? options.allowed_domains.filter((d) => typeof d === 'string') : [],
    identity_secret: typeof options.identity_secret === 'string' && options.identity_secret !== '' ? options.identity_secret : null,
    hide_launcher: options.hide_launcher === true,
    enabled: options.enabled !== false,
    appearance: readAppearance(c),
  };
}

export function presentChannel(c: Channel, agentIds: number[], publicUrl: string): ChannelDto {
  return c.type === 'chat_api' ? presentChatChannel(c, agentIds, publicUrl) : presentWidgetChannel(c, agentIds, publicUrl);
}

/** A channel as any agent may know it (GET /api/v1/me/channels): nothing of its secrets, URLs or agents. */
export function presentChannelRef(c: Pick<Channel, 'id' | 'type' | 'name'>): ChannelRefDto {
  return { id: c.id, type: c.type, name: c.name };
}
