/**
 * POST /auth/login (token + cookies for the web app; `must_change_password`
 * true after a one-time password, see domain/auth/login.ts), POST /auth/logout
 * (revokes the token and closes the streams opened with it at once),
 * POST /auth/logout-all (every session of the person), the sign-in
 * throttles an admin sees and clears (GET/DELETE /auth/throttles), and the
 * password links of invitations and resets: POST /auth/forgot-password (the
 * same answer whether or not the address exists, given before the address is
 * even looked up, so its timing does not tell either: the lookup and the mail
 * run once it is sent; throttled per address sending, per IP asking),
 * GET /auth/password-link (what the link page shows),
 * POST /auth/set-password (uses the link up), POST /auth/email-confirmation
 * (the link mailed to an agent's new address).
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../context.js';
import { AfterAnswer } from '../../../../lib/afterAnswer.js';
import { confirmEmailChange } from '../../../../domain/agents/emailChanges.js';
import { login } from '../../../../domain/auth/login.js';
import { logout } from '../../../../domain/auth/logout.js';
import { logoutEverywhere } from '../../../../domain/auth/logoutEverywhere.js';
import { clearThrottle, listThrottles } from '../../../../domain/auth/manageThrottles.js';
import { forgotPassword, readPasswordLink, setPasswordWithLink } from '../../../../domain/auth/resetPassword.js';
import { RateLimiter, type Limit } from '../../../rateLimit.js';
import { signInSource } from '../../../signInSource.js';
import { presentAgent } from '../../../../presenters/agent.js';
import { presentSignInThrottle } from '../../../../presenters/signInThrottle.js';
import { CSRF_COOKIE, TOKEN_COOKIE, actor, makeGuards } from '../../../authenticate.js';
import { PageQuery, readPage } from '../../../pagination.js';
import { IdParams, readId } from '../../../params.js';
import { ForgotPasswordBody, LoginBody, PasswordLinkQuery, PasswordLinkSchema, SetPasswordBody, ThrottleSchema } from './schema.js';

const tags = ['auth'];
const security = [{ bearer: [] }];

const FORGOT_PER_IP: Limit = {
  name: 'forgot-password-ip',
  capacity: 10,
  windowMs: 15 * 60 * 1000,
  message: 'Too many password-reset requests from this address; try again in 15 minutes.',
};
const LINK_PER_IP: Limit = {
  name: 'password-link-ip',
  capacity: 30,
  windowMs: 15 * 60 * 1000,
  message: 'Too many password-link attempts from this address; try again in 15 minutes.',
};

export async function authRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireSession, requireAdmin } = makeGuards(ctx);
  const secure = ctx.config.publicUrl.startsWith('https:');
  const limiter = new RateLimiter(ctx);
  const afterAnswer = new AfterAnswer(ctx.log);
  base.addHook('onClose', () => afterAnswer.settled());
  base.addHook('onClose', () => limiter.close());
  /** The address each forgot-password request asked for, read once its answer is sent. */
  const forgotten = new WeakMap<FastifyRequest, string>();

  app.post('/auth/login', { schema: { tags: ['auth'], body: LoginBody } }, async (request, reply) => {
    const source = signInSource(request);
    const { token, agent, mustChangePassword } = await login(ctx, { email: request.body.email, password: request.body.password, ...source });
    const maxAge = ctx.config.tokenTtlSeconds;
    void reply.setCookie(TOKEN_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'strict', secure, maxAge });
    void reply.setCookie(CSRF_COOKIE, crypto.randomBytes(16).toString('base64url'), { path: '/', httpOnly: false, sameSite: 'strict', secure, maxAge });
    return { token, agent: presentAgent(agent), must_change_password: mustChangePassword };
  });

  app.post(
    '/auth/forgot-password',
    {
      schema: { tags: ['auth'], body: ForgotPasswordBody },
      // The same answer, at the same moment, for every address: the work starts once it is sent.
      onResponse: async (request) => {
        const email = forgotten.get(request);
        if (email !== undefined) afterAnswer.run('forgot-password', () => forgotPassword(ctx, { email }));
      },
    },
    async (request, reply) => {
      await limiter.take(FORGOT_PER_IP, request.ip);
      forgotten.set(request, request.body.email);
      return reply.code(202).send({
        result: 'ok',
        message: 'If an account uses this address, a mail with a link to choose a new password is on its way. The link works for 1 hour.',
      });
    },
  );

  app.get('/auth/password-link', { schema: { tags: ['auth'], querystring: PasswordLinkQuery, response: { 200: PasswordLinkSchema } } }, async (request) => {
    await limiter.take(LINK_PER_IP, request.ip);
    return readPasswordLink(ctx, { token: request.query.token });
  });

  app.post('/auth/set-password', { schema: { tags: ['auth'], body: SetPasswordBody } }, async (request, reply) => {
    await limiter.take(LINK_PER_IP, request.ip);
    await setPasswordWithLink(ctx, { token: request.body.token, password: request.body.password });
    return reply.code(204).send();
  });

  // Opens the link mailed to an agent's new address (domain/agents/emailChanges.ts): the address changes now.
  app.post(
    '/auth/email-confirmation',
    {
      schema: {
        tags: ['auth'],
        summary: "Confirm an agent's new e-mail with the token of the link mailed to it → the agent; 404 link_invalid, 410 link_expired, 409 email_taken",
        body: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the link in the mail.' }) },
          { additionalProperties: true },
        ),
      },
    },
    async (request) => {
      await limiter.take(LINK_PER_IP, request.ip);
      return presentAgent(await confirmEmailChange(ctx, { token: request.body.token }));
    },
  );

  app.post('/auth/logout', { schema: { tags: ['auth'] }, preValidation: requireSession }, async (request, reply) => {
    if (request.agent && request.authToken) await logout(ctx, { agent: request.agent, token: request.authToken });
    void reply.clearCookie(TOKEN_COOKIE, { path: '/' });
    void reply.clearCookie(CSRF_COOKIE, { path: '/' });
    return reply.code(204).send();
  });

  app.post('/auth/logout-all', { schema: { tags, security }, preValidation: requireSession }, async (request, reply) => {
    await logoutEverywhere(ctx, { agent: actor(request) });
    void reply.clearCookie(TOKEN_COOKIE, { path: '/' });
    void reply.clearCookie(CSRF_COOKIE, { path: '/' });
    return reply.code(204).send();
  });

  app.get(
    '/auth/throttles',
    { schema: { tags, security, querystring: PageQuery, response: { 200: Type.Array(ThrottleSchema) } }, preValidation: requireAdmin },
    async (request) => {
      const page = readPage(request.query);
      const rows = await listThrottles(ctx, { actor: actor(request), limit: page.limit, before: page.before });
      const now = ctx.clock();
      return rows.map((r) => presentSignInThrottle(r, now));
    },
  );

  app.delete('/auth/throttles/:id', { schema: { tags, security, params: IdParams }, preValidation: requireAdmin }, async (request, reply) => {
    await clearThrottle(ctx, { actor: actor(request), id: readId(request.params, 'Sign-in throttle') });
    return reply.code(204).send();
  });
}
