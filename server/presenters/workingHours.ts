/** Working hours for chat as the admin API shows them (protocol/routing.ts): the hours, open now, the next change, a week ahead. */
import { hoursState, previewDays, type WorkingHours } from '../domain/workingHours/hours.js';
import type { DepartmentHoursDto, HoursStatusDto, WorkingHoursDto, WorkingHoursOverviewDto } from '../../protocol/routing.js';

export function presentHoursStatus(inForce: WorkingHours | null, now: number): HoursStatusDto {
  const { open, changes_at } = hoursState(inForce, now);
  return { open, changes_at, timezone: inForce?.timezone ?? 'UTC', preview: previewDays(inForce, now) };
}

export function presentDepartmentHours(
  d: { id: number; name: string; own: WorkingHours | null },
  account: WorkingHours | null,
  now: number,
): DepartmentHoursDto {
  return { id: d.id, name: d.name, hours: d.own, ...presentHoursStatus(d.own ?? account, now) };
}

export function presentWorkingHours(
  view: { account: WorkingHours | null; departments: Array<{ id: number; name: string; own: WorkingHours | null }> },
  now: number,
): WorkingHoursOverviewDto {
  const hours: WorkingHoursDto | null = view.account;
  return {
    account: { hours, ...presentHoursStatus(view.account, now) },
    departments: view.departments.map((d) => presentDepartmentHours(d, view.account, now)),
  };
}
