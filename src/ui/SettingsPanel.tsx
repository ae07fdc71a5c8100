import { useEffect, useId, useState } from 'react';
import { CONFIG_KEYS, parseField, SCHEMA, STRUCTURAL_KEYS, type Config } from '../rl/config';
import { selectActions, selectConfig, useApp } from '../store/store';

/** The channels' settings (sim/channels.ts), shown together beside the structure (ChannelSettings). */
export const CHANNEL_KEYS: readonly (keyof Config)[] = ['channels', 'sideBoard', 'catchRate', 'catchCost'];

/** Fields with their own control elsewhere on the page (the controls row, the structure's channels and the schedule editor). */
export const SHOWN_ELSEWHERE: readonly (keyof Config)[] = [
  ...CHANNEL_KEYS,
  'family',
  'agents',
  'advantage',
  'seed',
  'tmaxStart',
  'tmaxEnd',
  'tmaxShape',
  'tmaxWarmup',
  'tmaxSteps',
  'structure',
];

/** "tasksPerUpdate" -> "tasks per update". */
export function fieldLabel(key: string): string {
  return key.replace(/([A-Z])/g, ' $1').toLowerCase();
}

/** One schema field as a labelled input; numbers are checked on the way in and explained when clamped. */
export function SchemaField({ name, value, onChange }: { name: keyof Config; value: Config[keyof Config]; onChange: (patch: Partial<Config>) => void }) {
  const f = SCHEMA[name];
  const id = useId();
  const [draft, setDraft] = useState(String(value));
  const [issue, setIssue] = useState<string | null>(null);
  useEffect(() => setDraft(String(value)), [value]);
  const restarts = STRUCTURAL_KEYS.includes(name);
  const help = `${f.help}${restarts ? ' (changing it starts a fresh run)' : ''}`;
  const commit = (raw: string, final: boolean) => {
    const r = parseField(name, raw, final ? 'clamp' : 'strict');
    if (r.value !== undefined && (final || !r.issue)) {
      if (r.value !== value) onChange({ [name]: r.value } as Partial<Config>);
      if (final) setDraft(String(r.value));
    } else if (final) {
      setDraft(String(value));
    }
    setIssue(r.issue ? r.issue.message : null);
  };
  let input;
  if (f.kind === 'bool') {
    input = (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        aria-describedby={`${id}-help`}
        data-testid={`setting-${name}`}
        onChange={(e) => onChange({ [name]: e.currentTarget.checked } as Partial<Config>)}
      />
    );
  } else if (f.kind === 'enum') {
    input = (
      <select
        id={id}
        value={String(value)}
        aria-describedby={`${id}-help`}
        data-testid={`setting-${name}`}
        onChange={(e) => commit(e.currentTarget.value, true)}
      >
        {f.values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    );
  } else {
    input = (
      <input
        id={id}
        type="number"
        inputMode={f.kind === 'int' ? 'numeric' : 'decimal'}
        min={f.min}
        max={f.max}
        step={f.kind === 'int' ? 1 : 'any'}
        value={draft}
        aria-describedby={`${id}-help${issue ? ` ${id}-issue` : ''}`}
        aria-invalid={issue ? true : undefined}
        data-testid={`setting-${name}`}
        onChange={(e) => {
          setDraft(e.currentTarget.value);
          commit(e.currentTarget.value, false);
        }}
        onBlur={(e) => {
          // Leaving an unchanged field keeps its note (and the layout) as it is.
          if (e.currentTarget.value !== String(value)) commit(e.currentTarget.value, true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget.value, true);
        }}
      />
    );
  }
  return (
    <div className="setting">
      <label htmlFor={id}>{fieldLabel(name)}</label>
      {input}
      <small id={`${id}-help`}>{help}</small>
      {issue && (
        <small id={`${id}-issue`} className="setting-issue" role="status">
          {issue}
        </small>
      )}
    </div>
  );
}

/** Every other setting of the shared schema, generated from it: learning, ablations, model size. */
export function SettingsPanel() {
  const controls = useApp(selectActions);
  const c = useApp(selectConfig);
  const keys = CONFIG_KEYS.filter((k) => !SHOWN_ELSEWHERE.includes(k));
  return (
    <details className="panel settings-panel" data-testid="settings-panel">
      <summary>All settings ({keys.length})</summary>
      <p className="settings-note">
        Each field takes effect between updates; those marked as starting a fresh run reset training. Values outside a field's range are clamped, with a note.
      </p>
      <div className="settings-grid">
        {keys.map((k) => (
          <SchemaField key={k} name={k} value={c[k]} onChange={controls.configure} />
        ))}
      </div>
    </details>
  );
}
