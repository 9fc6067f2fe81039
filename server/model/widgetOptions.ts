/**
 * A widget channel's options as stored (channels.options_json) and read back;
 * the rules of a change are the domain's (domain/channels/channelInput.ts).
 */
import type { Channel } from '../db/schema.js';
import { parseJson } from '../lib/json.js';

/** Widget options kept in channels.options_json (other keys written there by other features are preserved). */
export interface WidgetOptions {
  color?: string | null;
  allowed_domains?: string[];
  /** Key of the HMAC-SHA256 signature setUserToken must carry (domain/widget/setUserToken.ts); absent = not checked. */
  identity_secret?: string;
  hide_launcher?: boolean;
  /** false: the widget is off (domain/widget/visitorAccess.ts treats it as unknown). Absent = on. */
  enabled?: boolean;
  [key: string]: unknown;
}

export function widgetOptions(channel: Pick<Channel, 'options_json'>): WidgetOptions {
  const parsed = parseJson<unknown>(channel.options_json, {});
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as WidgetOptions) : {};
}
