/** The account's audit log, newest first, a page at a time (GET /api/v1/audit). */
import type { AppContext } from '../../context.js';
import { applyPage, type Page } from '../../db/page.js';
import type { AuditEntry } from '../../db/schema.js';

export async function listAudit(ctx: AppContext, accountId: number, page: Page): Promise<AuditEntry[]> {
  return applyPage(ctx.db.selectFrom('audit_log').selectAll().where('account_id', '=', accountId), page, 'id').execute();
}
