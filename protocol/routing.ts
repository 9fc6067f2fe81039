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

/** Whether a widget asks the visitor for a department before the first message. */
export type DepartmentChoiceDto = 'off' | 'optional' | 'required';

/** An assignment mode (docs/ROUTING.md, "Assignment"). */
export type RoutingModeDto = 'manual' | 'round_robin' | 'least_busy';

/** GET/PUT /api/v1/routing: the account's assignment settings, the departments' modes, the agents' chat limits. */
export interface RoutingSettingsDto {
  mode: RoutingModeDto;
  offer_timeout_seconds: number;
  /** Seconds a department's chat is offered to its agents only; null = never to everyone. */
  everyone_after_seconds: number | null;
  /** Each department's own mode (null = the account's) and its name in the widget's languages ({"de": "Vertrieb"}). */
  departments: Array<{ id: number; name: string; mode: RoutingModeDto | null; names: Record<string, string> }>;
  /** Each widget's department choice before the first message. */
  widgets: Array<{ id: number; name: string; department_choice: DepartmentChoiceDto }>;
  /** Each agent's concurrent-chat limit; null = none. */
  agents: Array<{ id: number; name: string; max_chats: number | null }>;
}
