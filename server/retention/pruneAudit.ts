/** Audit-log rows older than AUDIT_RETENTION_DAYS, oldest first, `limit` at a time (docs/DATA.md "Audit log"). */
import type { AppContext } from '../context.js';
import { exclusively } from './exclusive.js';

export async function pruneAudit(ctx: AppContext, p: { cutoff: number; limit: number }): Promise<{ deleted: number; more: boolean } | null> {
  const deleted = await exclusively(ctx, async (tx) =>
    Number(
      (
        await tx
          .deleteFrom('audit_log')
          .where('id', 'in', tx.selectFrom('audit_log').select('id').where('created_at', '<', p.cutoff).orderBy('created_at').limit(p.limit))
          .executeTakeFirst()
      ).numDeletedRows,
    ),
  );
  if (deleted === null) return null;
  return { deleted, more: deleted >= p.limit };
}
