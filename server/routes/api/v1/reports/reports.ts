/**
 * /api/v1/reports/*: the figures of the Reports page. Admins see their whole
 * account; an agent sees only its own figures (domain/reports/scope.ts).
 * Every report takes the same query (range, time zone, buckets, filters).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { runReport, type ReportKind } from '../../../../domain/reports/runReport.js';
import { invalid } from '../../../../errors/AppError.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { MAX_ID } from '../../../pagination.js';
import { readableSchemaErrors } from '../../../validationMessage.js';
import {
  AgentsReportSchema,
  BusiestHoursReportSchema,
  ChatsReportSchema,
  RatingsReportSchema,
  ReportQuery,
  ResponseTimesReportSchema,
  type ReportQueryT,
} from './schema.js';
import type { ReportInput } from '../../../../domain/reports/scope.js';

const tags = ['reports'];
const security = [{ bearer: [] }];

function readFilterId(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d{1,10}$/.test(value) || n < 1 || n > MAX_ID) throw invalid(`${name} must be a positive integer id.`);
  return n;
}

function readReportQuery(q: ReportQueryT): ReportInput {
  if (q.interval !== undefined && q.interval !== 'day' && q.interval !== 'hour') throw invalid('interval must be day or hour.');
  return {
    from: q.from,
    to: q.to,
    timezone: q.timezone,
    interval: q.interval,
    channelId: readFilterId(q.channel_id, 'channel_id'),
    departmentId: readFilterId(q.department_id, 'department_id'),
    agentId: readFilterId(q.agent_id, 'agent_id'),
  };
}

const REPORTS: [string, ReportKind, unknown][] = [
  ['/reports/chats', 'chats', ChatsReportSchema],
  ['/reports/response-times', 'response_times', ResponseTimesReportSchema],
  ['/reports/ratings', 'ratings', RatingsReportSchema],
  ['/reports/agents', 'agents', AgentsReportSchema],
  ['/reports/busiest-hours', 'busiest_hours', BusiestHoursReportSchema],
];

export async function reportsRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent } = makeGuards(ctx);
  for (const [url, kind, response] of REPORTS) {
    app.get(
      url,
      {
        schema: { tags, security, querystring: ReportQuery, response: { 200: response } },
        preValidation: requireAgent,
        schemaErrorFormatter: readableSchemaErrors,
      },
      async (request) => runReport(ctx, { actor: actor(request), kind, input: readReportQuery(request.query) }),
    );
  }
}
