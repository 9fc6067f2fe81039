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

interface Audited {
  action: string;
  /** What `:id` (or the created row's id) names. */
  target?: string;
}

export const AUDITED: Record<string, Audited> = {
  'GET /api/v1/export': { action: 'data.exported' },
  'GET /api/v1/visitors/:id/export': { action: 'visitor.exported', target: 'visitor' },
  'DELETE /api/v1/visitors/:id': { action: 'visitor.erased', target: 'visitor' },
  'DELETE /api/v1/visitors/:id/uploads': { action: 'visitor.files_freed', target: 'visitor' },
  'DELETE /api/v1/chats/:id/uploads': { action: 'chat.files_freed', target: 'chat' },
  'PUT /api/v1/settings': { action: 'settings.updated' },
  'POST /api/v1/settings/webhook-secret/rotate': { action: 'settings.webhook_secret_rotated' },
  'POST /api/v1/settings/webhooks/resume': { action: 'settings.webhooks_resumed' },
  'PUT /api/v1/routing': { action: 'routing.updated' },
  'POST /api/v1/channels': { action: 'channel.created', target: 'channel' },
  'PATCH /api/v1/channels/:id': { action: 'channel.updated', target: 'channel' },
  'DELETE /api/v1/channels/:id': { action: 'channel.deleted', target: 'channel' },
  'POST /api/v1/agents': { action: 'agent.created', target: 'agent' },
  'PATCH /api/v1/agents/:id': { action: 'agent.updated', target: 'agent' },
  'POST /api/v1/agents/:id/invitation': { action: 'agent.invited', target: 'agent' },
  'POST /api/v1/agents/:id/password-reset': { action: 'agent.password_reset', target: 'agent' },
  'POST /api/v1/departments': { action: 'department.created', target: 'department' },
  'PATCH /api/v1/departments/:id': { action: 'department.updated', target: 'department' },
  'DELETE /api/v1/departments/:id': { action: 'department.deleted', target: 'department' },
  'PUT /api/v1/departments/:id/agents': { action: 'department.agents_changed', target: 'department' },
  'PUT /api/v1/departments/:id/working-hours': { action: 'department.hours_changed', target: 'department' },
  'PUT /api/v1/me/password': { action: 'agent.password_changed' },
  'POST /api/v1/me/email': { action: 'agent.email_change_requested' },
  'POST /api/v1/mails/:id/link': { action: 'mail.link_copied', target: 'mail' },
  'POST /api/v1/auth/email-confirmation': { action: 'agent.email_confirmed' },
  'POST /api/v1/me/first-run': { action: 'account.first_run_completed' },
  'POST /api/v1/auth/forgot-password': { action: 'password.reset_requested' },
  'POST /api/v1/auth/set-password': { action: 'password.set_from_link' },
  'DELETE /api/v1/auth/throttles/:id': { action: 'sign_in_throttle.cleared', target: 'sign_in_throttle' },
};

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
    const audited = AUDITED[`${request.method} ${request.routeOptions.url ?? ''}`];
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
