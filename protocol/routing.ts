/**
 * Shapes of the routing and working-hours API (docs/ROUTING.md): the server's
 * presenters build them, the agent app's admin screens read them. Types only.
 */

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export type TimeRange = [string, string];

export interface HoursExceptionDto {
  /** Local date in the hours' time zone, YYYY-MM-DD. */
  date: string;
  /** That date's ranges instead of its weekday's; [] = closed all day. */
  ranges: TimeRange[];
  note: string | null;
}

/** Working hours for chat; `null` where hours are expected = always open. */
export interface WorkingHoursDto {
  timezone: string;
  weekly: Partial<Record<Weekday, TimeRange[]>>;
  exceptions: HoursExceptionDto[];
}

export interface PreviewDayDto {
  date: string;
  weekday: Weekday;
  ranges: TimeRange[];
  /** The exception deciding the day (its note, "" without one), or null for the weekly hours. */
  exception: string | null;
}

/** Hours as they stand: open now, when that changes, and the next seven days. */
export interface HoursStatusDto {
  open: boolean;
  /** Epoch ms of the next change; null = none ahead. */
  changes_at: number | null;
  /** Time zone the preview's dates are in (UTC for always open). */
  timezone: string;
  preview: PreviewDayDto[];
}

export interface DepartmentHoursDto extends HoursStatusDto {
  id: number;
  name: string;
  /** The department's own hours; null = it follows the account's. */
  hours: WorkingHoursDto | null;
}

/** GET /api/v1/working-hours. */
export interface WorkingHoursOverviewDto {
  account: HoursStatusDto & { hours: WorkingHoursDto | null };
  departments: DepartmentHoursDto[];
}
