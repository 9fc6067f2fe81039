/**
 * The one entry of the reports API: resolves the scope (range, zone, filters,
 * who may see what) and runs one report over the rollups.
 */
import type { AppContext } from '../../context.js';
import type { Actor } from '../agents/actor.js';
import { agentsReport } from './agentsReport.js';
import { busiestHours } from './busiestHours.js';
import { chatsReport } from './chatsReport.js';
import { ratingsReport } from './ratingsReport.js';
import { responseTimesReport } from './responseTimesReport.js';
import { resolveScope, type ReportInput, type ReportScope } from './scope.js';

export type ReportKind = 'chats' | 'response_times' | 'ratings' | 'agents' | 'busiest_hours';

export interface ReportRange {
  from: string;
  to: string;
  timezone: string;
  interval: 'day' | 'hour';
  channel_id: number | null;
  department_id: number | null;
  agent_id: number | null;
  previous_from: string;
  previous_to: string;
}

function rangeOf(scope: ReportScope): ReportRange {
  return {
    from: scope.current.from,
    to: scope.current.to,
    timezone: scope.timezone,
    interval: scope.interval,
    channel_id: scope.channelId,
    department_id: scope.departmentId,
    agent_id: scope.agentId,
    previous_from: scope.previous.from,
    previous_to: scope.previous.to,
  };
}

export async function runReport(ctx: AppContext, input: { actor: Actor; kind: ReportKind; input: ReportInput }): Promise<{ range: ReportRange } & object> {
  const scope = await resolveScope(ctx.db, input.actor, input.input);
  const range = rangeOf(scope);
  switch (input.kind) {
    case 'chats':
      return { range, ...(await chatsReport(ctx.db, scope)) };
    case 'response_times':
      return { range, ...(await responseTimesReport(ctx.db, scope)) };
    case 'ratings':
      return { range, ...(await ratingsReport(ctx.db, scope)) };
    case 'agents':
      return { range, ...(await agentsReport(ctx.db, scope, ctx.clock())) };
    case 'busiest_hours':
      return { range, ...(await busiestHours(ctx.db, scope)) };
  }
}
