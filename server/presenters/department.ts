/** A department as the admin API shows it. */
import type { Department } from '../db/schema.js';
import type { DepartmentDto } from '../../protocol/agent.js';
export type { DepartmentDto };

export function presentDepartment(d: Department): DepartmentDto {
  return { id: d.id, name: d.name };
}
