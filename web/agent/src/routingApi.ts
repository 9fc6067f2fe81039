/** Calls of the department API (docs/ROUTING.md): a department's agents, and a chat transferred to a department. */
import type { Chat } from './types';
import { request } from './api';

export interface DepartmentMembers {
  department_id: number;
  agent_ids: number[];
}

export const routingApi = {
  members: (departmentId: number) => request<DepartmentMembers>('GET', `/departments/${departmentId}/agents`),
  setMembers: (departmentId: number, agentIds: number[]) => request<DepartmentMembers>('PUT', `/departments/${departmentId}/agents`, { agent_ids: agentIds }),
  transferToDepartment: (chatId: number, departmentId: number) => request<Chat>('POST', `/chats/${chatId}/transfer`, { department_id: departmentId }),
};
