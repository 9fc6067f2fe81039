/** A department as the admin API shows it. */
import type { Department } from '../db/schema.js';

export interface DepartmentDto {
  id: number;
  name: string;
}

export function presentDepartment(d: Department): DepartmentDto {
  return { id: d.id, name: d.name };
}
