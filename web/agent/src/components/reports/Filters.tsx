/**
 * The Reports page's filters: a date range (presets or two days), buckets
 * (automatic, hours, days), channel, department and agent (the last one for
 * admins; agents see only their own figures), and comparing with the
 * previous period. Every change applies at once.
 */
import { t } from '../../i18n';
import type { AgentDto, ChannelDto, DepartmentDto } from '../../../../../protocol/agent';
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
  channels: ChannelDto[] | null;
  departments: DepartmentDto[];
  agents: AgentDto[] | null;
}

export function Filters({ value, onChange, days, channels, departments, agents }: Props) {
  const set = (changes: Partial<FilterState>) => onChange({ ...value, ...changes });
  return (
    <form className="report-filters" aria-label={t('pages.reports.filters')} onSubmit={(e) => e.preventDefault()}>
      <fieldset className="presets">
        <legend className="sr-only">{t('pages.reports.period')}</legend>
        {PRESETS.map(([key, label]) => (
          <button key={key} type="button" aria-pressed={value.preset === key} onClick={() => set({ preset: key })}>
            {t(label)}
          </button>
        ))}
        <button type="button" aria-pressed={value.preset === 'custom'} onClick={() => set({ preset: 'custom' })}>
          {t('pages.reports.custom')}
        </button>
      </fieldset>
      <div className="row filter-row">
        {value.preset === 'custom' && (
          <>
            <label>
              {t('pages.archive.from')}
              <input type="date" name="from" value={value.from} max={value.to || undefined} onChange={(e) => set({ from: e.target.value })} />
            </label>
            <label>
              {t('pages.archive.to')}
              <input type="date" name="to" value={value.to} min={value.from || undefined} onChange={(e) => set({ to: e.target.value })} />
            </label>
          </>
        )}
        <label>
          {t('pages.reports.buckets')}
          <select name="interval" value={value.interval} onChange={(e) => set({ interval: e.target.value as FilterState['interval'] })}>
            <option value="auto">{t('pages.reports.automatic')}</option>
            <option value="hour" disabled={days > MAX_HOURLY_DAYS} title={t('pages.reports.hoursUpTo', { count: MAX_HOURLY_DAYS })}>
              {t('pages.reports.hours')}
            </option>
            <option value="day">{t('pages.reports.days')}</option>
          </select>
        </label>
        {channels && (
          <label>
            {t('pages.archive.channel')}
            <select name="channel" value={value.channelId} onChange={(e) => set({ channelId: e.target.value })}>
              <option value="">{t('pages.reports.allChannels')}</option>
              {channels.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          {t('pages.archive.department')}
          <select name="department" value={value.departmentId} onChange={(e) => set({ departmentId: e.target.value })}>
            <option value="">{t('pages.reports.allDepartments')}</option>
            {departments.map((d) => (
              <option key={d.id} value={String(d.id)}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        {agents && (
          <label>
            {t('pages.archive.agent')}
            <select name="agent" value={value.agentId} onChange={(e) => set({ agentId: e.target.value })}>
              <option value="">{t('pages.reports.allAgents')}</option>
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
          {t('pages.reports.compare')}
        </label>
      </div>
    </form>
  );
}
