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
import { useSaver } from '../../hooks/useSaver';
import { language, t, tn } from '../../i18n';
import type { TextKey } from '../../i18n/en';
import { routingApi } from '../../routingApi';
import { ErrorText } from './ErrorText';
import { SaveResult } from './SaveResult';

/** Each mode with the keys of its name and of what it does (read at render, in the agent's language). */
const MODES: Array<[RoutingModeDto, TextKey, TextKey]> = [
  ['manual', 'admin.assignment.mode.manual', 'admin.assignment.modeHelp.manual'],
  ['round_robin', 'admin.assignment.mode.round_robin', 'admin.assignment.modeHelp.round_robin'],
  ['least_busy', 'admin.assignment.mode.least_busy', 'admin.assignment.modeHelp.least_busy'],
];
const modeName = (m: RoutingModeDto): string => {
  const key = MODES.find(([k]) => k === m)?.[1];
  return key ? t(key) : m;
};
/** A mode's name inside a sentence ("Saved: round robin, …"). */
const IN_SENTENCE: Record<RoutingModeDto, TextKey> = {
  manual: 'admin.assignment.modeInSentence.manual',
  round_robin: 'admin.assignment.modeInSentence.round_robin',
  least_busy: 'admin.assignment.modeInSentence.least_busy',
};

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
  const saver = useSaver();
  const save = () => saver.run(onSave, (said) => said);
  return (
    <div className="form-actions">
      <button type="button" className="primary" disabled={disabled || saver.busy} onClick={() => void save()}>
        {label}
      </button>
      <SaveResult saver={saver} />
    </div>
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
    const vars = { seconds: String(next.everyone_after_seconds ?? ''), timeout: String(next.offer_timeout_seconds), mode: t(IN_SENTENCE[next.mode]) };
    const stay = next.everyone_after_seconds === null;
    if (next.mode === 'manual') return t(stay ? 'admin.assignment.savedManualStay' : 'admin.assignment.savedManualEveryone', vars);
    return t(stay ? 'admin.assignment.savedModeStay' : 'admin.assignment.savedModeEveryone', vars);
  };
  return (
    <section className="card" aria-label={t('admin.assignment.accountTitle')}>
      <h2>{t('admin.assignment.accountTitle')}</h2>
      <fieldset>
        <legend className="sr-only">{t('admin.assignment.modeLegend')}</legend>
        {MODES.map(([key, label, help]) => (
          <label key={key} className="check">
            <input type="radio" name="routing-mode" value={key} checked={mode === key} onChange={() => setMode(key)} />
            <strong>{t(label)}</strong> <span className="muted small">{t(help)}</span>
          </label>
        ))}
      </fieldset>
      <p className="muted small">{t('admin.assignment.offerHint')}</p>
      <label>
        {t('admin.assignment.timeout')}
        <input type="number" name="offer-timeout" min={5} max={600} value={timeout} onChange={(e) => setTimeoutValue(e.target.value)} />
      </label>
      <label className="check">
        <input type="checkbox" name="to-everyone" checked={toEveryone} onChange={(e) => setToEveryone(e.target.checked)} />
        {t('admin.assignment.toEveryone')}
      </label>
      {toEveryone && (
        <label>
          {t('admin.assignment.after')}
          <input type="number" name="everyone-after" min={0} max={86400} value={wait} onChange={(e) => setWait(e.target.value)} />
        </label>
      )}
      <SaveRow label={t('admin.assignment.save')} onSave={save} />
    </section>
  );
}

function DepartmentModes({ view, onSaved }: { view: RoutingSettingsDto; onSaved: (v: RoutingSettingsDto) => void }) {
  const [modes, setModes] = useState<Record<number, RoutingModeDto | null>>(() => Object.fromEntries(view.departments.map((d) => [d.id, d.mode])));
  const save = async () => {
    const next = await routingApi.saveRouting({ departments: view.departments.map((d) => ({ id: d.id, mode: modes[d.id] ?? null })) });
    onSaved(next);
    const own = next.departments.filter((d) => d.mode !== null).length;
    return own === 0 ? t('admin.assignment.departmentsSavedNone') : tn('admin.assignment.departmentsSaved', own);
  };
  return (
    <section className="card" aria-label={t('admin.assignment.departmentsTitle')}>
      <h2>{t('admin.assignment.departmentsTitle')}</h2>
      <p className="muted small">{t('admin.assignment.departmentsHint')}</p>
      {view.departments.length === 0 ? (
        <p className="muted">{t('admin.assignment.noDepartments')}</p>
      ) : (
        <>
          <NamedRowsTable
            label={t('admin.assignment.departmentModes')}
            headings={[t('admin.assignment.department'), t('admin.assignment.modeHeading')]}
            rows={view.departments}
            cell={(d) => (
              <select
                aria-label={t('admin.assignment.modeOf', { name: d.name })}
                value={modes[d.id] ?? ''}
                onChange={(e) => setModes((m) => ({ ...m, [d.id]: e.target.value === '' ? null : (e.target.value as RoutingModeDto) }))}
              >
                <option value="">{t('admin.assignment.asAccount', { mode: modeName(view.mode) })}</option>
                {MODES.map(([key, label]) => (
                  <option key={key} value={key}>
                    {t(label)}
                  </option>
                ))}
              </select>
            )}
          />
          <SaveRow label={t('admin.assignment.saveDepartments')} onSave={save} />
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
    return limited === 0 ? t('admin.assignment.limitsSavedNone') : tn('admin.assignment.limitsSaved', limited);
  };
  return (
    <section className="card" aria-label={t('admin.assignment.limitsTitle')}>
      <h2>{t('admin.assignment.limitsTitle')}</h2>
      <p className="muted small">{t('admin.assignment.limitsHint')}</p>
      {view.agents.length === 0 ? (
        <p className="muted">{t('admin.assignment.noAgents')}</p>
      ) : (
        <>
          <NamedRowsTable
            label={t('admin.assignment.limitsTable')}
            headings={[t('admin.assignment.agent'), t('admin.assignment.mostChats')]}
            rows={view.agents}
            cell={(a) => (
              <input
                type="number"
                min={1}
                max={1000}
                aria-label={t('admin.assignment.limitOf', { name: a.name })}
                placeholder={t('admin.assignment.noLimit')}
                value={limits[a.id] ?? ''}
                onChange={(e) => setLimits((l) => ({ ...l, [a.id]: e.target.value }))}
              />
            )}
          />
          <SaveRow label={t('admin.assignment.saveLimits')} onSave={save} />
        </>
      )}
    </section>
  );
}

const CHOICES: Array<[DepartmentChoiceDto, TextKey]> = [
  ['off', 'admin.assignment.choice.off'],
  ['optional', 'admin.assignment.choice.optional'],
  ['required', 'admin.assignment.choice.required'],
];

/** The widget's languages other than English (department names as they are serve English). */
type NameLanguage = Exclude<WidgetLanguage, 'en'>;
const NAME_LANGUAGES = WIDGET_LANGUAGES.filter((l): l is NameLanguage => l !== 'en');
/** A widget language's name in the agent's language ("Arabic", "Arabisch"), from Intl. */
const languageName = (l: NameLanguage): string => new Intl.DisplayNames([language()], { type: 'language' }).of(l) ?? l;
/** The languages by their name in the agent's language, as the agent reads the list. */
const sortedLanguages = (): NameLanguage[] => [...NAME_LANGUAGES].sort((a, b) => languageName(a).localeCompare(languageName(b), language()));

function WidgetChoice({ view, onSaved }: { view: RoutingSettingsDto; onSaved: (v: RoutingSettingsDto) => void }) {
  const [choices, setChoices] = useState<Record<number, DepartmentChoiceDto>>(() => Object.fromEntries(view.widgets.map((w) => [w.id, w.department_choice])));
  /** Every department's names, in every language, as edited (saved together). */
  const [names, setNames] = useState<Record<number, Record<string, string>>>(() => Object.fromEntries(view.departments.map((d) => [d.id, { ...d.names }])));
  // The first language that has a name already, else the first of the list.
  const [nameLanguage, setNameLanguage] = useState<NameLanguage>(
    () => sortedLanguages().find((l) => view.departments.some((d) => d.names[l])) ?? sortedLanguages()[0],
  );
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
    return asking === 0 ? t('admin.assignment.choiceSavedNone') : tn('admin.assignment.choiceSaved', asking);
  };
  return (
    <section className="card" aria-label={t('admin.assignment.choiceTitle')}>
      <h2>{t('admin.assignment.choiceTitle')}</h2>
      <p className="muted small">{t('admin.assignment.choiceHint')}</p>
      {view.widgets.length === 0 ? (
        <p className="muted">{t('admin.assignment.noWidgets')}</p>
      ) : (
        <>
          <NamedRowsTable
            label={t('admin.assignment.choiceTable')}
            headings={[t('admin.assignment.widget'), t('admin.assignment.asks')]}
            rows={view.widgets}
            cell={(w) => (
              <select
                aria-label={t('admin.assignment.choiceOf', { name: w.name })}
                value={choices[w.id] ?? 'off'}
                onChange={(e) => setChoices((c) => ({ ...c, [w.id]: e.target.value as DepartmentChoiceDto }))}
              >
                {CHOICES.map(([key, label]) => (
                  <option key={key} value={key}>
                    {t(label)}
                  </option>
                ))}
              </select>
            )}
          />
          {view.departments.length > 0 && (
            <>
              <label className="name-language">
                {t('admin.assignment.namesFor')}
                <select value={nameLanguage} onChange={(e) => setNameLanguage(e.target.value as NameLanguage)}>
                  {sortedLanguages().map((l) => {
                    const n = named(l);
                    return (
                      <option key={l} value={l}>
                        {n > 0 ? tn('admin.assignment.languageNamed', n, { language: languageName(l) }) : languageName(l)}
                      </option>
                    );
                  })}
                </select>
              </label>
              <NamedRowsTable
                label={t('admin.assignment.namesTable', { language: languageName(nameLanguage) })}
                headings={[t('admin.assignment.department'), t('admin.assignment.nameShownIn', { language: languageName(nameLanguage) })]}
                rows={view.departments}
                cell={(d) => (
                  <input
                    aria-label={t('admin.assignment.nameOf', { language: languageName(nameLanguage), name: d.name })}
                    lang={nameLanguage}
                    dir={nameLanguage === 'ar' ? 'rtl' : undefined}
                    maxLength={100}
                    placeholder={d.name}
                    value={names[d.id]?.[nameLanguage] ?? ''}
                    onChange={(e) => setNames((all) => ({ ...all, [d.id]: { ...all[d.id], [nameLanguage]: e.target.value } }))}
                  />
                )}
              />
            </>
          )}
          <SaveRow label={t('admin.assignment.saveChoice')} onSave={save} />
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
      <h1 id="assignment-title">{t('admin.assignment.title')}</h1>
      <p className="muted small">{t('admin.assignment.intro')}</p>
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
        <p className="muted">{t('common.loading')}</p>
      )}
    </section>
  );
}
