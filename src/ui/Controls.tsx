import { useState } from 'react';
import { ADVANTAGES } from '../rl/advantages';
import { familyChange, SCHEMA } from '../rl/config';
import { FAMILIES } from '../sim/task';
import { selectActions, selectConfig, selectRunState, useApp } from '../store/store';
import { BACKENDS, type BackendChoice } from '../worker/protocol';
import { IntegerField, SelectField } from './Fields';
import { ReplaySettingsNote } from './ReplaySettingsNote';
import { StructurePicker } from './StructurePicker';
import { ADVANTAGE_LABELS, gloss } from './glossary';

const agentsField = SCHEMA.agents as { min: number; max: number };

/** Play / pause / step / reset, live views, the run's state and Copy link: the stage's compact bar. */
export function RunButtons() {
  const controls = useApp(selectActions);
  const state = useApp(selectRunState);
  const live = useApp((s) => s.live);
  const running = state === 'running';
  const replaying = useApp((s) => s.replay !== null);
  const [copied, setCopied] = useState<string | null>(null);
  const copyLink = () => {
    const url = location.href;
    if (!navigator.clipboard) {
      setCopied(`Copy this link: ${url}`);
      return;
    }
    navigator.clipboard.writeText(url).then(
      () => setCopied('Link copied: it opens these settings and this seed.'),
      () => setCopied(`Copy this link: ${url}`),
    );
  };
  return (
    <div className="buttons" role="group" aria-label="Training">
      <button
        type="button"
        onClick={running ? controls.pause : controls.start}
        disabled={state === 'finished' || replaying}
        title={replaying ? 'Leave the replay to train' : undefined}
        data-testid="play"
      >
        {running ? 'Pause' : 'Train'}
      </button>
      <button type="button" onClick={controls.step} disabled={running || state === 'finished' || replaying} data-testid="step">
        Step
      </button>
      <button type="button" onClick={controls.reset} data-testid="reset">
        Reset
      </button>
      <label className="toggle" title="Off: train at full speed; the views catch up when you pause or switch back on">
        <input type="checkbox" checked={live} onChange={(e) => controls.setLive(e.currentTarget.checked)} data-testid="live" /> live views
      </label>
      <span className={`state state-${state}`} role="status" data-testid="run-state">
        {state}
      </span>
      <button type="button" onClick={copyLink} title="Copy a link that opens the app with these settings and seed" data-testid="copy-link">
        Copy link
      </button>
      {copied && (
        <span className="copied" role="status" data-testid="copy-status">
          {copied}
        </span>
      )}
    </div>
  );
}

/** The main settings of the run: task family, agents, advantage, seed, backend and structure. */
export function Controls() {
  const controls = useApp(selectActions);
  const c = useApp(selectConfig);
  const choice = useApp((s) => s.backendChoice);
  return (
    <section className="panel controls" aria-labelledby="controls-title" data-testid="controls">
      <h2 id="controls-title">Settings of the run</h2>
      <ReplaySettingsNote part="settings" />
      <div className="settings">
        <SelectField label="tasks" testId="family" value={c.family} options={FAMILIES} onChange={(family) => controls.configure(familyChange(c, family))} />
        <IntegerField
          label="agents"
          testId="agents"
          value={c.agents}
          min={agentsField.min}
          max={agentsField.max}
          onChange={(agents) => controls.configure({ agents })}
        />
        <SelectField
          label={`advantage (${gloss('advantage form').plain})`}
          testId="advantage"
          value={c.advantage}
          options={ADVANTAGES}
          labels={ADVANTAGE_LABELS}
          onChange={(advantage) => controls.configure({ advantage })}
        />
        <IntegerField label="seed" value={c.seed} min={0} max={2147483647} onChange={(seed) => controls.configure({ seed })} />
        <SelectField
          label="backend"
          testId="backend-choice"
          value={choice}
          options={['auto', ...BACKENDS] as BackendChoice[]}
          labels={{ auto: 'auto (measured)' }}
          onChange={controls.chooseBackend}
        />
      </div>
      <StructurePicker />
    </section>
  );
}
