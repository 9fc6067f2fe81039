/** Calls of the routing API (docs/ROUTING.md): a department's agents, a chat transferred to a department, the assignment settings. */
import type { RoutingSettingsDto } from '../../../protocol/routing';
import type { ChatDto } from '../../../protocol/agent';
import { request } from './api';

export interface DepartmentMembers {
  department_id: number;
  agent_ids: number[];
}

export const routingApi = {
  members: (departmentId: number) => request<DepartmentMembers>('GET', `/departments/${departmentId}/agents`),
  setMembers: (departmentId: number, agentIds: number[]) => request<DepartmentMembers>('PUT', `/departments/${departmentId}/agents`, { agent_ids: agentIds }),
  routing: () => request<RoutingSettingsDto>('GET', '/routing'),
  /** Changes what it names (the account's mode, timeout and wait; departments' modes; agents' limits). */
  saveRouting: (
    changes: Partial<Omit<RoutingSettingsDto, 'departments' | 'agents' | 'widgets'>> & {
      departments?: Array<{ id: number; mode?: RoutingSettingsDto['mode'] | null; names?: Record<string, string> }>;
      widgets?: Array<{ id: number; department_choice: RoutingSettingsDto['widgets'][number]['department_choice'] }>;
      agents?: Array<{ id: number; max_chats: number | null }>;
    },
  ) => request<RoutingSettingsDto>('PUT', '/routing', changes),
  transferToDepartment: (chatId: number, departmentId: number) => request<ChatDto>('POST', `/chats/${chatId}/transfer`, { department_id: departmentId }),
};
