import { ADVANTAGES, type AdvantageForm } from '../rl/advantages';
import { SCHEMA } from '../rl/config';
import { FAMILIES, type Family } from '../sim/task';
import { selectConfig, selectRunState, useApp } from '../store/store';
import { BACKENDS, type BackendChoice } from '../worker/protocol';
import type { TrainerControls } from './useTrainer';

const agentsField = SCHEMA.agents as { min: number; max: number };

/** Play / pause / step / reset and the main settings of the run. */
export function Controls({ controls }: { controls: TrainerControls }) {
  const c = useApp(selectConfig);
  const state = useApp(selectRunState);
  const choice = useApp((s) => s.backendChoice);
  const running = state === 'running';
  return (
    <section className="panel controls" aria-label="Training controls">
      <div className="buttons">
        <button type="button" onClick={running ? controls.pause : controls.start} disabled={state === 'finished'} data-testid="play">
          {running ? 'Pause' : 'Train'}
        </button>
        <button type="button" onClick={controls.step} disabled={running || state === 'finished'} data-testid="step">
          Step
        </button>
        <button type="button" onClick={controls.reset} data-testid="reset">
          Reset
        </button>
        <span className={`state state-${state}`} role="status" data-testid="run-state">
          {state}
        </span>
      </div>
      <div className="settings">
        <label className="select">
          <span>tasks</span>
          <select value={c.family} onChange={(e) => controls.configure({ family: e.currentTarget.value as Family })}>
            {FAMILIES.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
        <label className="select">
          <span>agents</span>
          <input type="number" min={agentsField.min} max={agentsField.max} value={c.agents} data-testid="agents" onChange={(e) => {
            const v = Math.round(Number(e.currentTarget.value));
            if (Number.isFinite(v)) controls.configure({ agents: Math.min(agentsField.max, Math.max(agentsField.min, v)) });
          }} />
        </label>
        <label className="select">
          <span>advantage</span>
          <select value={c.advantage} onChange={(e) => controls.configure({ advantage: e.currentTarget.value as AdvantageForm })}>
            {ADVANTAGES.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label className="select">
          <span>seed</span>
          <input type="number" min={0} value={c.seed} onChange={(e) => {
            const v = Math.round(Number(e.currentTarget.value));
            if (Number.isFinite(v) && v >= 0 && v <= 2147483647) controls.configure({ seed: v });
          }} />
        </label>
        <label className="select">
          <span>backend</span>
          <select value={choice} data-testid="backend-choice" onChange={(e) => controls.chooseBackend(e.currentTarget.value as BackendChoice)}>
            <option value="auto">auto (measured)</option>
            {BACKENDS.map((b) => (
              <option key={b}>{b}</option>
            ))}
          </select>
        </label>
      </div>
    </section>
  );
}
