/**
 * Working hours for chat as the admin API shows them (protocol/routing.ts): the hours, open now, the next change, a week ahead.
 * The route passes what the hours come to at its instant (domain/workingHours/hours.ts hoursStatus): presenters compute nothing.
 */
import type { HoursStatus, WorkingHours } from '../model/workingHours.js';
import type { DepartmentHoursDto, HoursStatusDto, WorkingHoursDto, WorkingHoursOverviewDto } from '../../protocol/routing.js';

/** What some hours come to at the route's instant. */
export type StatusOf = (hours: WorkingHours | null) => HoursStatus;

export function presentHoursStatus(inForce: WorkingHours | null, statusOf: StatusOf): HoursStatusDto {
  const { open, changes_at, preview } = statusOf(inForce);
  return { open, changes_at, timezone: inForce?.timezone ?? 'UTC', preview };
}

export function presentDepartmentHours(
  d: { id: number; name: string; own: WorkingHours | null },
  account: WorkingHours | null,
  statusOf: StatusOf,
): DepartmentHoursDto {
  return { id: d.id, name: d.name, hours: d.own, ...presentHoursStatus(d.own ?? account, statusOf) };
}

export function presentWorkingHours(
  view: { account: WorkingHours | null; departments: Array<{ id: number; name: string; own: WorkingHours | null }> },
  statusOf: StatusOf,
): WorkingHoursOverviewDto {
  const hours: WorkingHoursDto | null = view.account;
  return {
    account: { hours, ...presentHoursStatus(view.account, statusOf) },
    departments: view.departments.map((d) => presentDepartmentHours(d, view.account, statusOf)),
  };
}
