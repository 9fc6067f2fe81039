/**
 * One row of the audit log (docs/DATA.md "Audit log"): who (an agent, or
 * nobody: the server's command line, a signed-out visitor of the sign-in
 * page), what (an action name such as `settings.updated`), to what (a type
 * and an id, never a visitor's personal data), from which address, when.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface AuditInput {
  accountId: number;
  agent: { id: number; name: string } | null;
  action: string;
  target?: { type: string; id: string | number } | null;
  address: string | null;
  at: number;
}

export async function recordAudit(db: Kysely<Database>, input: AuditInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      account_id: input.accountId,
      agent_id: input.agent?.id ?? null,
      agent_name: input.agent?.name ?? null,
      action: input.action,
      target_type: input.target?.type ?? null,
      target_id: input.target ? String(input.target.id) : null,
      address: input.address,
      created_at: input.at,
    })
    .execute();
}
