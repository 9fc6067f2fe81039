/** Calls of the working-hours API (docs/ROUTING.md): the overview, the account's hours (a settings key), a department's own. */
import type { DepartmentHoursDto, WorkingHoursDto, WorkingHoursOverviewDto } from '../../../protocol/routing';
import { request } from './api';

export const hoursApi = {
  overview: () => request<WorkingHoursOverviewDto>('GET', '/working-hours'),
  /** The account's hours; null = always open. */
  saveAccount: (hours: WorkingHoursDto | null) => request<unknown>('PUT', '/settings', { chat_hours: hours }),
  /** A department's own hours; null = it follows the account's. */
  saveDepartment: (id: number, hours: WorkingHoursDto | null) => request<DepartmentHoursDto>('PUT', `/departments/${id}/working-hours`, { hours }),
};
