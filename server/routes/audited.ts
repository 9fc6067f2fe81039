/**
 * Which requests go into the audit log (docs/DATA.md "Audit log"), by method
 * and route: exports, erasures, settings, channels, agents, departments,
 * routing, password resets, sign-in throttle clears, freed files. One table,
 * so a route module stays as it is and a newcomer sees every audited action
 * in one place. Only a successful answer (2xx) is recorded; the target is the
 * route's `:id`, or the `id` of what a create answers.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { recordAudit } from '../domain/audit/recordAudit.js';

/**
 * The action each audited request records. Its target is what the route's
 * `:id` names (or, for a create in CREATES, the created row's id), of the type
 * the action's first word says ("visitor.erased": a visitor).
 */
export const AUDITED: Record<string, string> = {
  'GET /api/v1/export': 'data.exported',
  'GET /api/v1/visitors/:id/export': 'visitor.exported',
  'DELETE /api/v1/visitors/:id': 'visitor.erased',
  'DELETE /api/v1/visitors/:id/uploads': 'visitor.files_freed',
  'DELETE /api/v1/chats/:id/uploads': 'chat.files_freed',
  'PUT /api/v1/settings': 'settings.updated',
  'POST /api/v1/settings/webhook-secret/rotate': 'settings.webhook_secret_rotated',
  'POST /api/v1/settings/webhooks/resume': 'settings.webhooks_resumed',
  'PUT /api/v1/routing': 'routing.updated',
  'POST /api/v1/channels': 'channel.created',
  'PATCH /api/v1/channels/:id': 'channel.updated',
  'DELETE /api/v1/channels/:id': 'channel.deleted',
  'POST /api/v1/agents': 'agent.created',
  'PATCH /api/v1/agents/:id': 'agent.updated',
  'POST /api/v1/agents/:id/invitation': 'agent.invited',
  'POST /api/v1/agents/:id/password-reset': 'agent.password_reset',
  'POST /api/v1/departments': 'department.created',
  'PATCH /api/v1/departments/:id': 'department.updated',
  'DELETE /api/v1/departments/:id': 'department.deleted',
  'PUT /api/v1/departments/:id/agents': 'department.agents_changed',
  'PUT /api/v1/departments/:id/working-hours': 'department.hours_changed',
  'PUT /api/v1/me/password': 'agent.password_changed',
  'POST /api/v1/me/email': 'agent.email_change_requested',
  'POST /api/v1/mails/:id/link': 'mail.link_copied',
  'POST /api/v1/auth/email-confirmation': 'agent.email_confirmed',
  'POST /api/v1/me/first-run': 'account.first_run_completed',
  'POST /api/v1/auth/forgot-password': 'password.reset_requested',
  'POST /api/v1/auth/set-password': 'password.set_from_link',
  'DELETE /api/v1/auth/throttles/:id': 'sign_in_throttle.cleared',
};

/** The creates whose target is the id in their answer. */
const CREATES = new Set(['POST /api/v1/channels', 'POST /api/v1/agents', 'POST /api/v1/departments']);

function auditedAs(route: string): { action: string; target: string | undefined } | null {
  const action = AUDITED[route];
  if (!action) return null;
  return { action, target: route.includes('/:id') || CREATES.has(route) ? action.slice(0, action.indexOf('.')) : undefined };
}

function targetOf(request: FastifyRequest, payload: unknown, target: string | undefined): { type: string; id: string } | null {
  if (!target) return null;
  const id = (request.params as { id?: unknown } | undefined)?.id;
  if (typeof id === 'string') return { type: target, id };
  // A create: the new row's id is in the answer.
  if (typeof payload === 'string' && payload.startsWith('{')) {
    try {
      const created = (JSON.parse(payload) as { id?: unknown }).id;
      if (typeof created === 'number' || typeof created === 'string') return { type: target, id: String(created) };
    } catch {
      // Not JSON: no target.
    }
  }
  return null;
}

/**
 * Records an audited request once its answer is sent (onResponse): the answer never waits for
 * the log, so a forgotten password answers as fast whoever asks (docs/SECURITY.md). The target
 * of a create is read from the answer as it goes (onSend). A failure to record is logged,
 * never the client's problem (the change itself is already committed).
 */
export function auditRequests(app: FastifyInstance, ctx: AppContext): void {
  const pending = new WeakMap<FastifyRequest, { action: string; target: { type: string; id: string } | null }>();
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    const audited = auditedAs(`${request.method} ${request.routeOptions.url ?? ''}`);
    if (audited) pending.set(request, { action: audited.action, target: targetOf(request, payload, audited.target) });
    return payload;
  });
  app.addHook('onResponse', async (request) => {
    const entry = pending.get(request);
    if (!entry) return;
    const agent = request.agent;
    const accountId = agent?.account_id ?? ctx.defaultAccountId;
    if (!accountId) return;
    try {
      await recordAudit(ctx.db, {
        accountId,
        agent: agent ? { id: agent.id, name: agent.name } : null,
        action: entry.action,
        target: entry.target,
        address: request.ip,
        at: ctx.clock(),
      });
    } catch (err) {
      request.log.error({ err, action: entry.action }, 'the audit log could not be written');
    }
  });
}
