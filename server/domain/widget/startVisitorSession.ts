/**
 * The chat frame starts (POST /widget/api/<widget_id>/session): a valid
 * visitor token of this widget resumes its visitor; anything else creates a
 * visitor with a random external id and a fresh 32-byte token, returned once
 * (only its sha256 is stored). Either way the browser session is recorded:
 * address, user agent (and browser/OS/device), GeoIP, UTM (kept from an
 * earlier page when this one has none), page, and visits (a new visit after
 * 30 minutes without a session call, which also starts the visit's clock and
 * list of pages again: session.ts). A chatting visitor on a new page: the
 * agents see it (chat.updated, change page_changed).
 */
import type { AppContext } from '../../context.js';
import type { Channel, Visitor } from '../../db/schema.js';
import { commit } from '../../events/outbox.js';
import { lookupGeoip } from '../../lib/geoip.js';
import { randomPublicId, randomToken, sha256 } from '../../lib/ids.js';
import { toJson } from '../../lib/json.js';
import { parseUserAgent } from '../../lib/userAgent.js';
import { WIDGET_LANGUAGES, type SessionResponse } from '../../../protocol/widget.js';
import { recordChatState } from '../chats/chatEvents.js';
import { findOpenChat } from '../chats/openChat.js';
import { upsertVisitor } from '../visitors/upsertVisitor.js';
import { checkPageHost } from './allowedDomains.js';
import { cleanPage, cleanUtm, readSession, visitPage, type WidgetSession } from './session.js';
import { findVisitorByToken, tryLockVisitor } from './visitorAccess.js';
import { loadWidgetState } from './widgetState.js';

export const VISIT_GAP_MS = 30 * 60 * 1000;
export const TOKEN_BYTES = 32;

export interface StartSessionInput {
  channel: Channel;
  body: { visitor_token?: unknown; page?: unknown; utm?: unknown; language?: unknown };
  ip: string | null;
  userAgent: string | null;
}

function nextSession(previous: WidgetSession, input: StartSessionInput, geoip: WidgetSession['geoip'], now: number): WidgetSession {
  const page = cleanPage(input.body.page);
  const utm = cleanUtm(input.body.utm);
  const ua = input.userAgent ? input.userAgent.slice(0, 512) : undefined;
  const { browser, os, device } = parseUserAgent(ua);
  const returning = previous.last_seen_at !== undefined && now - previous.last_seen_at <= VISIT_GAP_MS;
  const next: WidgetSession = { ...previous, geoip, visits: (previous.visits ?? 0) + (returning ? 0 : 1), last_seen_at: now };
  if (!returning || next.visit_started_at === undefined) {
    // A new visit: its clock and its list of pages start again.
    next.visit_started_at = now;
    next.pages = [];
  }
  if (input.ip) next.ip = input.ip;
  if (ua) {
    // This browser's parse replaces the last one's entirely.
    delete next.browser;
    delete next.os;
    delete next.device;
    next.user_agent = ua;
    if (browser) next.browser = browser;
    if (os) next.os = os;
    if (device) next.device = device;
  }
  if (utm) next.utm = utm;
  // The language the widget shows this visitor (one of its own; anything else is not kept), for the agent app.
  const language = WIDGET_LANGUAGES.find((l) => l === input.body.language);
  if (language) next.language = language;
  if (page) {
    next.page = page.title ? { url: page.url, title: page.title } : { url: page.url };
    if (page.referrer) next.referrer = page.referrer;
    visitPage(next, next.page, now);
  }
  return next;
}

export async function startVisitorSession(ctx: AppContext, input: StartSessionInput): Promise<SessionResponse> {
  const { channel } = input;
  checkPageHost(channel, cleanPage(input.body.page)?.url ?? null);
  const now = ctx.clock();
  const given = typeof input.body.visitor_token === 'string' ? input.body.visitor_token : null;
  const known = await findVisitorByToken(ctx.db, channel, given);
  const geoip = await lookupGeoip(input.ip, (err) => ctx.log.warn({ err }, 'GeoIP database unavailable'));

  const { visitor, token } = await commit(ctx.db, ctx.signals, async (tx): Promise<{ visitor: Visitor; token: string }> => {
    // A visitor gone since the lookup (an idle anonymous one the retention pass deleted) is as an unknown token: a fresh one.
    let current = known && given ? await tryLockVisitor(tx, known.id, now) : undefined;
    let token: string;
    if (current && given) {
      token = given;
    } else {
      token = randomToken(TOKEN_BYTES);
      ({ visitor: current } = await upsertVisitor(tx, {
        accountId: channel.account_id,
        channelId: channel.id,
        externalId: `w_${randomPublicId(20)}`,
        details: {},
        now,
      }));
    }
    const session = nextSession(readSession(current), input, geoip, now);
    const visitor = await tx
      .updateTable('visitors')
      .set({
        session_json: toJson(session),
        token_hash: sha256(token),
        ...(session.page ? { url: session.page.url } : {}),
        updated_at: now,
      })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    // The next page of a visitor who is chatting: the agent's panel shows it at once.
    const chat = session.page && session.page.url !== current.url ? await findOpenChat(tx, visitor.id) : undefined;
    if (chat) await recordChatState(tx, chat, 'chat.updated', now, { change: 'page_changed' });
    return { visitor, token };
  });

  return { visitor_token: token, ...(await loadWidgetState(ctx.db, channel, visitor, now)) };
}
