/** An audit-log row as GET /api/v1/audit shows it (docs/DATA.md "Audit log"). */
import type { AuditEntry } from '../db/schema.js';
import type { AuditEntryDto } from '../../protocol/agent.js';
export type { AuditEntryDto };

export function presentAuditEntry(e: AuditEntry): AuditEntryDto {
  return {
    id: e.id,
    at: e.created_at,
    agent: e.agent_id === null ? null : { id: e.agent_id, name: e.agent_name },
    action: e.action,
    target: e.target_type === null || e.target_id === null ? null : { type: e.target_type, id: e.target_id },
    address: e.address,
  };
}
