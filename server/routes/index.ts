/**
 * Every route module of the service, registered in one place.
 * Prefixes: /api/v1 (agent & admin API), /wh (chat channel), /widget, /healthz, /metrics, /openapi.json.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { agentsRoutes } from './api/v1/agents/agents.js';
import { channelsRoutes } from './api/v1/channels/channels.js';
import { departmentsRoutes } from './api/v1/departments/departments.js';
import { departmentMembersRoutes } from './api/v1/departments/members.js';
import { settingsRoutes } from './api/v1/settings/settings.js';
import { authRoutes } from './api/v1/auth/auth.js';
import { callsRoutes } from './api/v1/calls/calls.js';
import { cannedResponsesRoutes } from './api/v1/canned-responses/cannedResponses.js';
import { chatRoutes } from './api/v1/chats/chats.js';
import { chatUploadRoutes } from './api/v1/chats/uploads.js';
import { deliveriesRoutes } from './api/v1/deliveries/deliveries.js';
import { exportRoutes } from './api/v1/export/export.js';
import { auditRoutes } from './api/v1/audit/audit.js';
import { mailsRoutes } from './api/v1/mails/mails.js';
import { meRoutes } from './api/v1/me/me.js';
import { mePreferencesRoutes } from './api/v1/me/preferences.js';
import { pushRoutes } from './api/v1/push/push.js';
import { offlineMessagesRoutes } from './api/v1/offline-messages/offlineMessages.js';
import { reportsRoutes } from './api/v1/reports/reports.js';
import { streamRoutes } from './api/v1/stream/stream.js';
import { erasuresRoutes } from './api/v1/erasures/erasures.js';
import { uploadsRoutes } from './api/v1/uploads/uploads.js';
import { systemApiRoutes } from './api/v1/system/system.js';
import { versionRoutes } from './api/v1/system/version.js';
import { visitorsRoutes } from './api/v1/visitors/visitors.js';
import { visitorDataRoutes } from './api/v1/visitors/visitorData.js';
import { workingHoursRoutes } from './api/v1/working-hours/workingHours.js';
import { routingRoutes } from './api/v1/routing/routing.js';
import { agentAppRoutes } from './app/agentApp.js';
import { systemRoutes } from './system/system.js';
import { widgetAssetRoutes } from './widget/assets.js';
import { widgetRoutes } from './widget/widget.js';
import { chatChannelRoutes } from './chatChannel/chatChannel.js';

export type RouteModule = (app: FastifyInstance, ctx: AppContext) => Promise<void>;

const apiV1: RouteModule[] = [
  authRoutes,
  meRoutes,
  mePreferencesRoutes,
  pushRoutes,
  chatRoutes,
  chatUploadRoutes,
  deliveriesRoutes,
  agentsRoutes,
  departmentsRoutes,
  channelsRoutes,
  settingsRoutes,
  streamRoutes,
  callsRoutes,
  offlineMessagesRoutes,
  cannedResponsesRoutes,
  mailsRoutes,
  reportsRoutes,
  workingHoursRoutes,
  departmentMembersRoutes,
  visitorsRoutes,
  visitorDataRoutes,
  uploadsRoutes,
  erasuresRoutes,
  routingRoutes,
  systemApiRoutes,
  versionRoutes,
  exportRoutes,
  auditRoutes,
];

export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(
    async (scope) => {
      for (const mod of apiV1) await mod(scope, ctx);
    },
    { prefix: '/api/v1' },
  );
  await chatChannelRoutes(app, ctx);
  await systemRoutes(app, ctx);
  await widgetAssetRoutes(app, ctx);
  await widgetRoutes(app, ctx);
  await agentAppRoutes(app, ctx);
}
