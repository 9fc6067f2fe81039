/**
 * What uploaded files take, for an administrator (#31 item 3, GET
 * /api/v1/uploads/usage): the quotas, the account's total, the bytes of each
 * channel (and of agents' photos, which have none) and the ten visitors whose
 * uploads take the most — the ones to free first (freeUploads.ts).
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import type { UploadUsageDto } from '../../../protocol/agent.js';

const TOP_VISITORS = 10;
const bytes = sql<string | number>`coalesce(sum(uploads.size), 0)`;
const files = sql<string | number>`count(*)`;

export async function uploadUsage(ctx: AppContext, accountId: number): Promise<UploadUsageDto> {
  const total = await ctx.db
    .selectFrom('uploads')
    .select([bytes.as('bytes'), files.as('files')])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  const channels = await ctx.db
    .selectFrom('uploads')
    .leftJoin('channels', 'channels.id', 'uploads.channel_id')
    .select(['uploads.channel_id', 'channels.name', bytes.as('bytes'), files.as('files')])
    .where('uploads.account_id', '=', accountId)
    .groupBy(['uploads.channel_id', 'channels.name'])
    .orderBy(sql`coalesce(sum(uploads.size), 0)`, 'desc')
    .execute();
  const visitors = await ctx.db
    .selectFrom('uploads')
    .innerJoin('visitors', 'visitors.id', 'uploads.visitor_id')
    .select(['visitors.id', 'visitors.number', 'visitors.name', 'visitors.channel_id', bytes.as('bytes'), files.as('files')])
    .where('uploads.account_id', '=', accountId)
    .where('visitors.account_id', '=', accountId)
    .groupBy(['visitors.id', 'visitors.number', 'visitors.name', 'visitors.channel_id'])
    .orderBy(sql`coalesce(sum(uploads.size), 0)`, 'desc')
    .orderBy('visitors.id')
    .limit(TOP_VISITORS)
    .execute();
  const c = ctx.config;
  return {
    quota: { account_bytes: c.uploadQuotaBytes, channel_bytes: c.uploadQuotaChannelBytes, visitor_bytes: c.uploadQuotaVisitorBytes },
    used: { bytes: Number(total.bytes), files: Number(total.files) },
    channels: channels.map((r) => ({ channel_id: r.channel_id, name: r.name ?? null, bytes: Number(r.bytes), files: Number(r.files) })),
    top_visitors: visitors.map((r) => ({
      visitor_id: r.id,
      number: r.number,
      name: r.name,
      channel_id: r.channel_id,
      bytes: Number(r.bytes),
      files: Number(r.files),
    })),
  };
}
