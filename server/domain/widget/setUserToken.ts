/**
 * svc_api.setUserToken: an id of the visitor in the customer's system, echoed
 * as user_token in event webhooks (never shown to agents). When the channel
 * has an identity secret (options_json.identity_secret), the page must also
 * pass signature = hex HMAC-SHA256(token, secret), computed on the customer's
 * server, so a visitor cannot claim someone else's id; it is compared in
 * constant time. Failure answers the spec's {result:'fail', token:false}.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { Channel, Visitor } from '../../db/schema.js';
import { safeEqual } from '../../lib/ids.js';
import { widgetOptions } from '../channels/channelInput.js';

export type UserTokenResult = { result: 'ok'; token: string } | { result: 'fail'; token: false };

export const MAX_USER_TOKEN = 255;

export function userTokenSignature(token: string, secret: string): string {
  return crypto.createHmac('sha256', secret).update(token).digest('hex');
}

function signatureValid(channel: Channel, token: string, signature: unknown): boolean {
  const secret = widgetOptions(channel).identity_secret;
  if (typeof secret !== 'string' || secret === '') return true;
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  return safeEqual(signature.toLowerCase(), userTokenSignature(token, secret));
}

/**
 * Whether the page signed `value` with the channel's identity secret (hex
 * HMAC-SHA256(value, secret)); false when the channel has none, so nothing
 * counts as signed where identity verification is off.
 */
export function signedByPage(channel: Channel, value: string, signature: unknown): boolean {
  const secret = widgetOptions(channel).identity_secret;
  if (typeof secret !== 'string' || secret === '') return false;
  return signatureValid(channel, value, signature);
}

export async function setUserToken(
  ctx: AppContext,
  input: { channel: Channel; visitor: Visitor; token: unknown; signature?: unknown },
): Promise<UserTokenResult> {
  const { token } = input;
  if (typeof token !== 'string' || token.trim() === '' || token.length > MAX_USER_TOKEN) return { result: 'fail', token: false };
  if (!signatureValid(input.channel, token, input.signature)) return { result: 'fail', token: false };
  await ctx.db.updateTable('visitors').set({ user_token: token, updated_at: ctx.clock() }).where('id', '=', input.visitor.id).execute();
  return { result: 'ok', token };
}
