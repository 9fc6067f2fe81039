/**
 * The page a transcript confirmation link opens, /widget/transcript/<token>
 * (domain/widget/confirmTranscript.ts): GET shows what it is for and a button,
 * POST (the button) uses the link up and sends the conversation. Public: the
 * token is the credential; limited per address. A link that no longer works
 * answers its page with 404 (unknown or used) or 410 (expired).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { confirmTranscript, peekConfirmation } from '../../domain/widget/confirmTranscript.js';
import { AppError } from '../../errors/AppError.js';
import { TRANSCRIPT_PAGE_CSP, transcriptPage, type TranscriptPageState } from '../../presenters/transcriptPage.js';
import type { RateLimiter } from '../rateLimit.js';
import { LIMITS } from './limits.js';

type Route = { Params: { token: string } };

function page(reply: FastifyReply, status: number, state: TranscriptPageState, lang: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', TRANSCRIPT_PAGE_CSP)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .send(transcriptPage(state, lang));
}

/** A link that no longer works, as its page; anything else is the usual error answer. */
function deadLink(reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof AppError && err.code === 'link_invalid') return page(reply, 404, { kind: 'invalid' }, 'en');
  if (err instanceof AppError && err.code === 'link_expired') return page(reply, 410, { kind: 'expired' }, 'en');
  throw err;
}

export async function transcriptConfirmRoutes(app: FastifyInstance, ctx: AppContext, limiter: RateLimiter): Promise<void> {
  await app.register(async (scope) => {
    // The page's form posts an empty urlencoded body: the token in the path is all it carries.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, _body, done) => done(null, {}));
    const schema = (summary: string) => ({ tags: ['widget'], summary, hide: true });

    scope.get<Route>('/transcript/:token', { schema: schema('The confirmation page of a transcript link (HTML)') }, async (request, reply) => {
      await limiter.take(LIMITS.transcriptConfirmPerIp, request.ip);
      try {
        const v = await peekConfirmation(ctx, request.params.token);
        return page(reply, 200, { kind: 'ask', email: v.email, accountName: v.accountName }, v.lang);
      } catch (err) {
        return deadLink(reply, err);
      }
    });

    scope.post<Route>('/transcript/:token', { schema: schema('Confirm a transcript link: the conversation is mailed (HTML)') }, async (request, reply) => {
      await limiter.take(LIMITS.transcriptConfirmPerIp, request.ip);
      try {
        const v = await confirmTranscript(ctx, request.params.token);
        return page(reply, 200, { kind: 'sent', email: v.email, accountName: v.accountName }, v.lang);
      } catch (err) {
        return deadLink(reply, err);
      }
    });
  });
}
