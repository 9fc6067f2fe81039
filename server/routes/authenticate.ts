/**
 * Who is calling: resolves `Authorization: Bearer <token>` (or the web app's
 * HttpOnly cookie, which must come with the X-CSRF-Token header on unsafe
 * methods) to an agent. Routes opt in with `preValidation: requireAgent` or
 * `requireAdmin`, so who calls is checked before the input: a stranger gets
 * 401 and an agent on an admin route 403, never a 400 about the body.
 *
 * A session opened with a one-time password (`npm run reset-admin`) passes
 * only `requireSession`, the guard of choosing a new password and of signing
 * out; every other guard answers 403 `password_change_required` until the
 * password is changed.
 */
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import type { Agent } from '../db/schema.js';
import { resolveToken } from '../domain/auth/tokens.js';
import { AppError } from '../errors/AppError.js';
import { safeEqual } from '../lib/ids.js';

export const TOKEN_COOKIE = 'parley_token';
export const CSRF_COOKIE = 'parley_csrf';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    agent: Agent | null;
    authToken: string | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
  return null;
}

async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<Agent> {
  let token = bearerToken(request);
  if (!token) {
    const cookieToken = request.cookies?.[TOKEN_COOKIE];
    if (cookieToken) {
      if (UNSAFE.has(request.method)) {
        const header = request.headers['x-csrf-token'];
        const cookie = request.cookies?.[CSRF_COOKIE];
        if (typeof header !== 'string' || !cookie || !safeEqual(header, cookie)) throw new AppError('csrf_failed');
      }
      token = cookieToken;
    }
  }
  if (!token) throw new AppError('unauthorized');
  const agent = await resolveToken(ctx.db, token, ctx.clock());
  if (!agent) throw new AppError('unauthorized', 'The token is unknown, expired or revoked; sign in again.');
  request.agent = agent;
  request.authToken = token;
  return agent;
}

/** Whether the agent's password is one it chose (not a one-time password that must be changed first). */
export const passwordChosen = (agent: Pick<Agent, 'password_state'>): boolean => agent.password_state === 'chosen';

export interface Guards {
  /** Any signed-in agent whose password is its own. */
  requireAgent: preHandlerAsyncHookHandler;
  /** An administrator whose password is its own. */
  requireAdmin: preHandlerAsyncHookHandler;
  /** Any signed-in agent, also one that must still change a one-time password: changing it, signing out. */
  requireSession: preHandlerAsyncHookHandler;
}

export function makeGuards(ctx: AppContext): Guards {
  const requireOwnPassword = async (request: FastifyRequest): Promise<Agent> => {
    const agent = await authenticate(ctx, request);
    if (agent.password_state === 'generated') {
      throw new AppError(
        'password_change_required',
        "You signed in with the password generated at the first start: give your e-mail, your company's name and your own password first (POST /api/v1/me/first-run), then try again.",
      );
    }
    if (!passwordChosen(agent)) throw new AppError('password_change_required');
    return agent;
  };
  return {
    requireAgent: async (request: FastifyRequest, _reply: FastifyReply) => {
      await requireOwnPassword(request);
    },
    requireAdmin: async (request: FastifyRequest, _reply: FastifyReply) => {
      const agent = await requireOwnPassword(request);
      if (agent.role !== 'admin') throw new AppError('forbidden');
    },
    requireSession: async (request: FastifyRequest, _reply: FastifyReply) => {
      await authenticate(ctx, request);
    },
  };
}

/** The signed-in agent of a guarded route. */
export function actor(request: FastifyRequest): Agent {
  if (!request.agent) throw new AppError('unauthorized');
  return request.agent;
}
