/**
 * The chat frame's HTTP API under /widget/api/<widget_id> (protocol/widget.ts):
 * session, messages, typing, contact info, custom data, user token, page,
 * client attributes, offline message, rating, callbacks (the calls domain's)
 * and the conversation mailed to the visitor (transcript).
 * Visitor calls carry `Authorization: Bearer <visitor_token>`. Handlers only
 * check the caller (visitorCall.ts) and call one domain operation.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { callbackAvailability } from '../../domain/calls/callbackAvailability.js';
import { requestCallback } from '../../domain/calls/requestCallback.js';
import { mailTranscript } from '../../domain/widget/mailTranscript.js';
import { rateChat } from '../../domain/widget/rateChat.js';
import { receiveWidgetMessage } from '../../domain/widget/receiveWidgetMessage.js';
import { sendOfflineMessage } from '../../domain/widget/sendOfflineMessage.js';
import { sendVisitorTyping } from '../../domain/widget/sendVisitorTyping.js';
import { setClientAttributes } from '../../domain/widget/setClientAttributes.js';
import { setContactInfo } from '../../domain/widget/setContactInfo.js';
import { setCustomData } from '../../domain/widget/setCustomData.js';
import { setUserToken } from '../../domain/widget/setUserToken.js';
import { setVisitorPage } from '../../domain/widget/setVisitorPage.js';
import { startVisitorSession } from '../../domain/widget/startVisitorSession.js';
import { currentChat } from '../../domain/widget/widgetState.js';
import { invalid } from '../../errors/AppError.js';
import { presentMessage } from '../../presenters/message.js';
import { widgetMessageFromDto } from '../../presenters/widget.js';
import type { RateLimiter } from '../rateLimit.js';
import { LIMITS } from './limits.js';
import { bodyObject, visitorOf, widgetOf, type WidgetParams } from './visitorCall.js';

type Route = { Params: WidgetParams };

const schema = (summary: string) => ({ tags: ['widget'], summary });
const ok = { result: 'ok' } as const;

export async function widgetApiRoutes(app: FastifyInstance, ctx: AppContext, limiter: RateLimiter): Promise<void> {
  const action = { visitor: LIMITS.actionPerVisitor };

  app.post<Route>('/api/:widgetId/session', { schema: schema('Create or resume the visitor (SessionRequest → SessionResponse)') }, async (request) => {
    const channel = await widgetOf(ctx, request);
    await limiter.take(LIMITS.sessionPerIp, request.ip);
    const userAgent = request.headers['user-agent'] ?? null;
    return startVisitorSession(ctx, { channel, body: bodyObject(request.body), ip: request.ip, userAgent });
  });

  app.post<Route>('/api/:widgetId/messages', { schema: schema('The visitor writes (VisitorMessageRequest → 201 WidgetMessage)') }, async (request, reply) => {
    const call = await visitorOf(ctx, limiter, request, { visitor: LIMITS.messagePerVisitor, ip: LIMITS.messagePerIp });
    const stored = await receiveWidgetMessage(ctx, { ...call, body: bodyObject(request.body) });
    // The visitor's own message, shown as sent even when suppressed (a blacklisted visitor is not told).
    return reply.code(201).send(widgetMessageFromDto(presentMessage(stored), () => undefined));
  });

  app.post<Route>('/api/:widgetId/typing', { schema: schema('The visitor starts or stops typing ({typing} → 204)') }, async (request, reply) => {
    const { visitor } = await visitorOf(ctx, limiter, request, action);
    const typing = bodyObject(request.body).typing;
    if (typeof typing !== 'boolean') throw invalid('typing must be true or false.');
    await sendVisitorTyping(ctx, { visitor, typing });
    return reply.code(204).send();
  });

  app.post<Route>(
    '/api/:widgetId/contact',
    { schema: schema('Contacts form / setContactInfo (ContactInfo, email_signature? → {result})') },
    async (request) => {
      const call = await visitorOf(ctx, limiter, request, action);
      await setContactInfo(ctx, { ...call, body: bodyObject(request.body) });
      return ok;
    },
  );

  app.post<Route>(
    '/api/:widgetId/custom-data',
    { schema: schema('setCustomData ({fields} → {result, dropped?}, 400 "Custom data must be array.")') },
    async (request) => {
      const { visitor } = await visitorOf(ctx, limiter, request, action);
      const { dropped } = await setCustomData(ctx, { visitor, fields: bodyObject(request.body).fields });
      // The fields past the limit were left out: the answer says how many (absent when none were).
      return dropped > 0 ? { ...ok, dropped } : ok;
    },
  );

  app.post<Route>('/api/:widgetId/user-token', { schema: schema('setUserToken ({token, signature?} → {result, token})') }, async (request) => {
    const call = await visitorOf(ctx, limiter, request, action);
    const body = bodyObject(request.body);
    return setUserToken(ctx, { ...call, token: body.token, signature: body.signature });
  });

  app.post<Route>('/api/:widgetId/page', { schema: schema('The page the visitor is on, or its title (PageInfo → 204)') }, async (request, reply) => {
    const { visitor } = await visitorOf(ctx, limiter, request, action);
    await setVisitorPage(ctx, { visitor, body: bodyObject(request.body) });
    return reply.code(204).send();
  });

  app.post<Route>('/api/:widgetId/attributes', { schema: schema('setClientAttributes ({attributes} → 204)') }, async (request, reply) => {
    const { visitor } = await visitorOf(ctx, limiter, request, action);
    await setClientAttributes(ctx, { visitor, attributes: bodyObject(request.body).attributes });
    return reply.code(204).send();
  });

  app.post<Route>('/api/:widgetId/offline', { schema: schema('sendOfflineMessage (OfflineMessageRequest → {result})') }, async (request) => {
    const call = await visitorOf(ctx, limiter, request, { visitor: LIMITS.offlinePerVisitor, ip: LIMITS.offlinePerIp });
    await sendOfflineMessage(ctx, { ...call, body: bodyObject(request.body) });
    return ok;
  });

  app.post<Route>('/api/:widgetId/rate', { schema: schema("Rate the visitor's chat ({rate} → 204)") }, async (request, reply) => {
    const { visitor } = await visitorOf(ctx, limiter, request, action);
    await rateChat(ctx, { visitor, rate: bodyObject(request.body).rate });
    return reply.code(204).send();
  });

  app.post<Route>(
    '/api/:widgetId/transcript',
    {
      schema: schema(
        "E-mail me this conversation ({lang?}): mailed to the visitor's own proved address (→ {result:'ok', chat_id}), else a confirmation link is mailed there first (→ {result:'confirmation_sent', chat_id}); 409 without an address or a chat, 429 over the caps",
      ),
    },
    async (request) => {
      const { visitor } = await visitorOf(ctx, limiter, request, { visitor: LIMITS.transcriptPerVisitor, ip: LIMITS.transcriptPerIp });
      return mailTranscript(ctx, { visitor, lang: bodyObject(request.body).lang });
    },
  );

  app.get<Route>('/api/:widgetId/callback', { schema: schema('isCallbackEnabled (→ CallbackAvailability)') }, async (request) => {
    const { visitor } = await visitorOf(ctx, limiter, request, action);
    return callbackAvailability(ctx.db, { accountId: visitor.account_id, visitorId: visitor.id, now: ctx.clock() });
  });

  app.post<Route>('/api/:widgetId/callback', { schema: schema('startCall ({phone} → {result, call_id} | {result, reason})') }, async (request) => {
    const { channel, visitor } = await visitorOf(ctx, limiter, request, { visitor: LIMITS.callbackPerVisitor, ip: LIMITS.callbackPerIp });
    const chat = await currentChat(ctx.db, visitor.id);
    const phone = bodyObject(request.body).phone;
    const outcome = await requestCallback(ctx, {
      accountId: channel.account_id,
      channelId: channel.id,
      visitorId: visitor.id,
      chatId: chat?.id ?? null,
      phone,
    });
    return outcome.result === 'ok' ? { result: 'ok', call_id: outcome.call.id } : outcome;
  });
}
