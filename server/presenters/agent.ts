/** The agent as the agent/admin API shows it (never the password hash); `department_ids` when the caller read them (the agents API). */
import type { Agent } from '../db/schema.js';
import type { AgentDto } from '../../protocol/agent.js';
export type { AgentDto };

export function presentAgent(a: Agent & { department_ids?: number[] }): AgentDto {
  return {
    id: a.id,
    name: a.name,
    email: a.email,
    role: a.role,
    status: a.status,
    phone: a.phone,
    photo_url: a.photo_url,
    active: a.active === 1,
    created_at: a.created_at,
    language: a.language ?? null,
    ...(a.department_ids ? { department_ids: a.department_ids } : {}),
  };
}
