/**
 * The Reports page's filters: a date range (presets or two days), buckets
 * (automatic, hours, days), channel, department and agent (the last one for
 * admins; agents see only their own figures), and comparing with the
 * previous period. Every change applies at once.
 */
import type { Agent, Channel, Department } from '../../types';
import { MAX_HOURLY_DAYS, PRESETS, type Preset } from '../../reports/model';

export interface FilterState {
  preset: Preset;
  from: string;
  to: string;
  interval: 'auto' | 'day' | 'hour';
  channelId: string;
  departmentId: string;
  agentId: string;
  compare: boolean;
}

interface Props {
  value: FilterState;
  onChange: (next: FilterState) => void;
  /** Days in the range now shown (hours are offered up to MAX_HOURLY_DAYS). */
  days: number;
  channels: Channel[] | null;
  departments: Department[];
  agents: Agent[] | null;
}

export function Filters({ value, onChange, days, channels, departments, agents }: Props) {
  const set = (changes: Partial<FilterState>) => onChange({ ...value, ...changes });
  return (
    <form className="report-filters" aria-label="Report filters" onSubmit={(e) => e.preventDefault()}>
      <fieldset className="presets">
        <legend className="sr-only">Period</legend>
        {PRESETS.map(([key, label]) => (
          <button key={key} type="button" aria-pressed={value.preset === key} onClick={() => set({ preset: key })}>
            {label}
          </button>
        ))}
        <button type="button" aria-pressed={value.preset === 'custom'} onClick={() => set({ preset: 'custom' })}>
          Custom…
        </button>
      </fieldset>
      <div className="row filter-row">
        {value.preset === 'custom' && (
          <>
            <label>
              From
              <input type="date" name="from" value={value.from} max={value.to || undefined} onChange={(e) => set({ from: e.target.value })} />
            </label>
            <label>
              To
              <input type="date" name="to" value={value.to} min={value.from || undefined} onChange={(e) => set({ to: e.target.value })} />
            </label>
          </>
        )}
        <label>
          Buckets
          <select name="interval" value={value.interval} onChange={(e) => set({ interval: e.target.value as FilterState['interval'] })}>
            <option value="auto">Automatic</option>
            <option value="hour" disabled={days > MAX_HOURLY_DAYS} title={`For ranges of up to ${MAX_HOURLY_DAYS} days`}>
              Hours
            </option>
            <option value="day">Days</option>
          </select>
        </label>
        {channels && (
          <label>
            Channel
            <select name="channel" value={value.channelId} onChange={(e) => set({ channelId: e.target.value })}>
              <option value="">All channels</option>
              {channels.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Department
          <select name="department" value={value.departmentId} onChange={(e) => set({ departmentId: e.target.value })}>
            <option value="">All departments</option>
            {departments.map((d) => (
              <option key={d.id} value={String(d.id)}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        {agents && (
          <label>
            Agent
            <select name="agent" value={value.agentId} onChange={(e) => set({ agentId: e.target.value })}>
              <option value="">All agents</option>
              {agents.map((a) => (
                <option key={a.id} value={String(a.id)}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="check compare">
          <input type="checkbox" name="compare" checked={value.compare} onChange={(e) => set({ compare: e.target.checked })} />
          Compare with the previous period
        </label>
      </div>
    </form>
  );
}
