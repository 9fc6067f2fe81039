/**
 * POST /auth/login (token + cookies for the web app), POST /auth/logout
 * (revokes the token and closes the streams opened with it at once).
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { login } from '../../../../domain/auth/login.js';
import { logout } from '../../../../domain/auth/logout.js';
import { presentAgent } from '../../../../presenters/agent.js';
import { CSRF_COOKIE, TOKEN_COOKIE, makeGuards } from '../../../authenticate.js';
import { LoginBody } from './schema.js';

export async function authRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent } = makeGuards(ctx);
  const secure = ctx.config.publicUrl.startsWith('https:');

  app.post('/auth/login', { schema: { tags: ['auth'], body: LoginBody } }, async (request, reply) => {
    const { token, agent } = await login({
      db: ctx.db,
      email: request.body.email,
      password: request.body.password,
      ip: request.ip,
      now: ctx.clock(),
      ttlSeconds: ctx.config.tokenTtlSeconds,
    });
    const maxAge = ctx.config.tokenTtlSeconds;
    void reply.setCookie(TOKEN_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'strict', secure, maxAge });
    void reply.setCookie(CSRF_COOKIE, crypto.randomBytes(16).toString('base64url'), { path: '/', httpOnly: false, sameSite: 'strict', secure, maxAge });
    return { token, agent: presentAgent(agent) };
  });

  app.post('/auth/logout', { schema: { tags: ['auth'] }, preValidation: requireAgent }, async (request, reply) => {
    if (request.agent && request.authToken) await logout(ctx, { agent: request.agent, token: request.authToken });
    void reply.clearCookie(TOKEN_COOKIE, { path: '/' });
    void reply.clearCookie(CSRF_COOKIE, { path: '/' });
    return reply.code(204).send();
  });
}
