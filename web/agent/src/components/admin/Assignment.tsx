/**
 * Admin: assignment (docs/ROUTING.md, "Assignment"). Three forms, each saved
 * on its own with its result (or the server's sentence) next to its button:
 * the account's mode, offer timeout and department wait; each department's
 * own mode; each agent's limit of chats at once; each widget's department
 * choice, with the departments' names in each of the widget's languages
 * (one language at a time; docs/ROUTING.md). Laid out as every admin page:
 * a titled page, each form on its card.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { DepartmentChoiceDto, RoutingModeDto, RoutingSettingsDto } from '../../../../../protocol/routing';
import { WIDGET_LANGUAGES, type WidgetLanguage } from '../../../../../protocol/widget';
import { errorText } from '../../api';
import { routingApi } from '../../routingApi';
import { ErrorText } from './ErrorText';

const MODES: Array<[RoutingModeDto, string, string]> = [
  ['manual', 'Manual', 'Every new chat waits in the Waiting queue for whoever presses Reply.'],
  ['round_robin', 'Round robin', 'Each new chat is offered to the Online agent who was offered one longest ago.'],
  ['least_busy', 'Least busy', 'Each new chat is offered to the Online agent holding the fewest chats.'],
];
const modeName = (m: RoutingModeDto): string => MODES.find(([k]) => k === m)?.[1] ?? m;

/** A two-column table of named rows (a department, an agent, a widget): the name, then the control `cell` gives it. */
function NamedRowsTable<T extends { id: number; name: string }>({
  label,
  headings,
  rows,
  cell,
}: {
  label: string;
  headings: [string, string];
  rows: T[];
  cell: (row: T) => ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table aria-label={label}>
        <thead>
          <tr>
            <th>{headings[0]}</th>
            <th>{headings[1]}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{row.name}</td>
              <td>{cell(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A save button with its result (or error) beside it. */
function SaveRow({ label, onSave, disabled }: { label: string; onSave: () => Promise<string>; disabled?: boolean }) {
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setSaved('');
    setError(null);
    setBusy(true);
    try {
      setSaved(await onSave());
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <div className="form-actions">
        <button type="button" className="primary" disabled={disabled || busy} onClick={() => void save()}>
          {label}
        </button>
        <p role="status" className="saved">
          {saved}
        </p>
      </div>
      <ErrorText error={error} />
    </>
  );
}

function AccountForm({ view, onSaved }: { view: RoutingSettingsDto; onSaved: (v: RoutingSettingsDto) => void }) {
  const [mode, setMode] = useState<RoutingModeDto>(view.mode);
  const [timeout, setTimeoutValue] = useState(String(view.offer_timeout_seconds));
  const [toEveryone, setToEveryone] = useState(view.everyone_after_seconds !== null);
  const [wait, setWait] = useState(String(view.everyone_after_seconds ?? 60));
  const save = async () => {
    const next = await routingApi.saveRouting({
      mode,
      offer_timeout_seconds: Number(timeout),
      everyone_after_seconds: toEveryone ? Number(wait) : null,
    });
    onSaved(next);
    const when =
      next.everyone_after_seconds === null
        ? "department chats stay with their department's agents"
        : `department chats go to everyone after ${next.everyone_after_seconds} s`;
    return next.mode === 'manual'
      ? `Saved: manual; ${when}.`
      : `Saved: ${modeName(next.mode).toLowerCase()}, ${next.offer_timeout_seconds} s to accept; ${when}.`;
  };
  return (
    <section className="card" aria-label="How new chats reach agents">
      <h2>How new chats reach agents</h2>
      <fieldset>
        <legend className="sr-only">Assignment mode</legend>
        {MODES.map(([key, label, help]) => (
          <label key={key} className="check">
            <input type="radio" name="routing-mode" value={key} checked={mode === key} onChange={() => setMode(key)} />
            <strong>{label}</strong> <span className="muted small">{help}</span>
          </label>
        ))}
      </fieldset>
      <p className="muted small">
        An offered chat stays in everyone&apos;s Waiting queue: anyone may still take it. Not accepted in time, it is offered to the next agent.
      </p>
      <label>
        Seconds an agent has to accept an offered chat
        <input type="number" name="offer-timeout" min={5} max={600} value={timeout} onChange={(e) => setTimeoutValue(e.target.value)} />
      </label>
      <label className="check">
        <input type="checkbox" name="to-everyone" checked={toEveryone} onChange={(e) => setToEveryone(e.target.checked)} />
        Offer a department&apos;s chats to everyone when its agents have not taken them
      </label>
      {toEveryone && (
        <label>
          after (seconds)
          <input type="number" name="everyone-after" min={0} max={86400} value={wait} onChange={(e) => setWait(e.target.value)} />
        </label>
      )}
      <SaveRow label="Save assignment" onSave={save} />
    </section>
  );
}

function DepartmentModes({ view, onSaved }: { view: RoutingSettingsDto; onSaved: (v: RoutingSettingsDto) => void }) {
  const [modes, setModes] = useState<Record<number, RoutingModeDto | null>>(() => Object.fromEntries(view.departments.map((d) => [d.id, d.mode])));
  const save = async () => {
    const next = await routingApi.saveRouting({ departments: view.departments.map((d) => ({ id: d.id, mode: modes[d.id] ?? null })) });
    onSaved(next);
    const own = next.departments.filter((d) => d.mode !== null).length;
    return own === 0 ? "Saved: every department follows the account's mode." : `Saved: ${own} department${own === 1 ? '' : 's'} with a mode of its own.`;
  };
  return (
    <section className="card" aria-label="Departments">
      <h2>Departments</h2>
      <p className="muted small">A department&apos;s chats are offered to its agents first, by its own mode or the account&apos;s.</p>
      {view.departments.length === 0 ? (
        <p className="muted">No departments yet: make them under Departments, then choose how their chats are assigned here.</p>
      ) : (
        <>
          <NamedRowsTable
            label="Modes of the departments"
            headings={['Department', 'Mode']}
            rows={view.departments}
            cell={(d) => (
              <select
                aria-label={`Mode of ${d.name}`}
                value={modes[d.id] ?? ''}
                onChange={(e) => setModes((m) => ({ ...m, [d.id]: e.target.value === '' ? null : (e.target.value as RoutingModeDto) }))}
              >
                <option value="">As the account ({modeName(view.mode)})</option>
                {MODES.map(([key, label]) => (
                  <option key={key} value={key}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          />
          <SaveRow label="Save department modes" onSave={save} />
        </>
      )}
    </section>
  );
}

function AgentLimits({ view, onSaved }: { view: RoutingSettingsDto; onSaved: (v: RoutingSettingsDto) => void }) {
  const [limits, setLimits] = useState<Record<number, string>>(() =>
    Object.fromEntries(view.agents.map((a) => [a.id, a.max_chats === null ? '' : String(a.max_chats)])),
  );
  const save = async () => {
    const next = await routingApi.saveRouting({
      agents: view.agents.map((a) => ({ id: a.id, max_chats: (limits[a.id] ?? '').trim() === '' ? null : Number(limits[a.id]) })),
    });
    onSaved(next);
    const limited = next.agents.filter((a) => a.max_chats !== null).length;
    return limited === 0 ? 'Saved: no agent has a limit.' : `Saved: ${limited} agent${limited === 1 ? ' has a limit' : 's have limits'}.`;
  };
  return (
    <section className="card" aria-label="Chats at once">
      <h2>Chats at once</h2>
      <p className="muted small">An agent holding this many chats (accepted or offered) is not offered more. Empty: no limit.</p>
      {view.agents.length === 0 ? (
        <p className="muted">No agents yet: add them under Agents.</p>
      ) : (
        <>
          <NamedRowsTable
            label="Chat limits of the agents"
            headings={['Agent', 'Most chats at once']}
            rows={view.agents}
            cell={(a) => (
              <input
                type="number"
                min={1}
                max={1000}
                aria-label={`Chat limit of ${a.name}`}
                placeholder="No limit"
                value={limits[a.id] ?? ''}
                onChange={(e) => setLimits((l) => ({ ...l, [a.id]: e.target.value }))}
              />
            )}
          />
          <SaveRow label="Save limits" onSave={save} />
        </>
      )}
    </section>
  );
}

const CHOICES: Array<[DepartmentChoiceDto, string]> = [
  ['off', 'Off: no question'],
  ['optional', 'Optional: the visitor may pick one'],
  ['required', 'Required: the visitor picks one before the first message'],
];

/** The widget's languages other than English (department names as they are serve English), by their English name. */
const LANGUAGE_NAMES: Record<Exclude<WidgetLanguage, 'en'>, string> = {
  ar: 'Arabic',
  de: 'German',
  fr: 'French',
  pt: 'Portuguese',
  ru: 'Russian',
  es: 'Spanish',
  tr: 'Turkish',
  uk: 'Ukrainian',
};
const NAME_LANGUAGES = WIDGET_LANGUAGES.filter((l): l is Exclude<WidgetLanguage, 'en'> => l !== 'en').sort((a, b) =>
  LANGUAGE_NAMES[a].localeCompare(LANGUAGE_NAMES[b]),
);
type NameLanguage = (typeof NAME_LANGUAGES)[number];

function WidgetChoice({ view, onSaved }: { view: RoutingSettingsDto; onSaved: (v: RoutingSettingsDto) => void }) {
  const [choices, setChoices] = useState<Record<number, DepartmentChoiceDto>>(() => Object.fromEntries(view.widgets.map((w) => [w.id, w.department_choice])));
  /** Every department's names, in every language, as edited (saved together). */
  const [names, setNames] = useState<Record<number, Record<string, string>>>(() => Object.fromEntries(view.departments.map((d) => [d.id, { ...d.names }])));
  // The first language that has a name already, else the first of the list.
  const [language, setLanguage] = useState<NameLanguage>(() => NAME_LANGUAGES.find((l) => view.departments.some((d) => d.names[l])) ?? NAME_LANGUAGES[0]);
  const named = (l: NameLanguage) => view.departments.filter((d) => (names[d.id]?.[l] ?? '').trim() !== '').length;
  const save = async () => {
    const next = await routingApi.saveRouting({
      widgets: view.widgets.map((w) => ({ id: w.id, department_choice: choices[w.id] ?? 'off' })),
      // An emptied name is left out: the widget shows the department's name as it is.
      departments: view.departments.map((d) => ({
        id: d.id,
        names: Object.fromEntries(Object.entries(names[d.id] ?? {}).filter(([, v]) => v.trim() !== '')),
      })),
    });
    onSaved(next);
    const asking = next.widgets.filter((w) => w.department_choice !== 'off').length;
    return asking === 0 ? 'Saved: no widget asks for a department.' : `Saved: ${asking} widget${asking === 1 ? ' asks' : 's ask'} for a department.`;
  };
  return (
    <section className="card" aria-label="Department choice in the widget">
      <h2>Department choice in the widget</h2>
      <p className="muted small">
        Before the first message the widget can ask which department the visitor wants; the chat then goes to that department&apos;s agents first.
      </p>
      {view.widgets.length === 0 ? (
        <p className="muted">No widgets yet: add one under Channels.</p>
      ) : (
        <>
          <NamedRowsTable
            label="Department choice of the widgets"
            headings={['Widget', 'Asks for a department']}
            rows={view.widgets}
            cell={(w) => (
              <select
                aria-label={`Department choice of ${w.name}`}
                value={choices[w.id] ?? 'off'}
                onChange={(e) => setChoices((c) => ({ ...c, [w.id]: e.target.value as DepartmentChoiceDto }))}
              >
                {CHOICES.map(([key, label]) => (
                  <option key={key} value={key}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          />
          {view.departments.length > 0 && (
            <>
              <label className="name-language">
                Department names for visitors who speak
                <select value={language} onChange={(e) => setLanguage(e.target.value as NameLanguage)}>
                  {NAME_LANGUAGES.map((l) => {
                    const n = named(l);
                    return (
                      <option key={l} value={l}>
                        {LANGUAGE_NAMES[l]}
                        {n > 0 ? ` (${n} named)` : ''}
                      </option>
                    );
                  })}
                </select>
              </label>
              <NamedRowsTable
                label={`Department names for ${LANGUAGE_NAMES[language]}-speaking visitors`}
                headings={['Department', `Name shown in ${LANGUAGE_NAMES[language]} (empty: the name as it is)`]}
                rows={view.departments}
                cell={(d) => (
                  <input
                    aria-label={`${LANGUAGE_NAMES[language]} name of ${d.name}`}
                    lang={language}
                    dir={language === 'ar' ? 'rtl' : undefined}
                    maxLength={100}
                    placeholder={d.name}
                    value={names[d.id]?.[language] ?? ''}
                    onChange={(e) => setNames((all) => ({ ...all, [d.id]: { ...all[d.id], [language]: e.target.value } }))}
                  />
                )}
              />
            </>
          )}
          <SaveRow label="Save department choice" onSave={save} />
        </>
      )}
    </section>
  );
}

export function Assignment() {
  const [view, setView] = useState<RoutingSettingsDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    routingApi.routing().then(setView, (err: unknown) => setError(errorText(err)));
  }, []);
  return (
    <section className="page assignment" aria-labelledby="assignment-title">
      <h1 id="assignment-title">Assignment</h1>
      <p className="muted small">
        Whether a new chat waits in Waiting for whoever takes it or is offered to one agent at a time; each department, agent and widget below can change how.
      </p>
      {view ? (
        <>
          <AccountForm view={view} onSaved={setView} />
          <DepartmentModes view={view} onSaved={setView} />
          <AgentLimits view={view} onSaved={setView} />
          <WidgetChoice view={view} onSaved={setView} />
        </>
      ) : error ? (
        <ErrorText error={error} />
      ) : (
        <p className="muted">Loading…</p>
      )}
    </section>
  );
}
