import { ablationLabels } from '../core/runName';
import { ADVANTAGES } from '../rl/advantages';
import { ADVANTAGE_LABELS, gloss } from './glossary';
import { defaultConfig, type Config } from '../rl/config';
import { selectActions, selectConfig, useApp } from '../store/store';
import { Explain } from './Explain';
import { SelectField, Slider } from './Fields';

/** The ablations that are on, in a few words each (empty: the RLCR defaults). */
export function activeAblations(c: Config): string[] {
  return ablationLabels(c);
}

/** Switches for the article's ablations, each against the RLCR default, with what to expect. */
export function AblationsPanel() {
  const controls = useApp(selectActions);
  const c = useApp(selectConfig);
  const set = controls.configure;
  const d = defaultConfig();
  const fixed = c.tmaxStart === c.tmaxEnd;
  return (
    <details className="panel ablations" data-testid="ablations">
      <summary>Ablations {activeAblations(c).length ? `(${activeAblations(c).join('; ')})` : '(none: plain RLCR)'}</summary>
      <div className="ablation-grid">
        <fieldset>
          <legend>
            Time pressure{' '}
            <Explain>
              RLCR's only time pressure is the deadline. A latency penalty also charges the swarm for finishing late: R − c·s·t_end/Tmax. It teaches speed too,
              but how much it helps depends strongly on the deadline it is paired with.
            </Explain>
          </legend>
          <label className="toggle">
            <input
              type="checkbox"
              checked={c.latencyPenalty > 0}
              onChange={(e) => set({ latencyPenalty: e.currentTarget.checked ? 0.5 : 0 })}
              data-testid="ablation-latency"
            />{' '}
            latency penalty
          </label>
          {c.latencyPenalty > 0 && (
            <Slider
              label="coefficient c"
              value={c.latencyPenalty}
              min={0.05}
              max={2}
              step={0.05}
              onChange={(latencyPenalty) => set({ latencyPenalty })}
              testId="ablation-latency-c"
            />
          )}
        </fieldset>
        <fieldset>
          <legend>
            Deadline schedule{' '}
            <Explain>
              A growing deadline lets the swarm learn short sprints first, then longer coordination. A fixed long deadline from the start gives it little signal
              about who should do what early on.
            </Explain>
          </legend>
          <label className="toggle">
            <input
              type="checkbox"
              checked={fixed}
              onChange={(e) => set(e.currentTarget.checked ? { tmaxStart: c.tmaxEnd } : { tmaxStart: Math.min(d.tmaxStart, c.tmaxEnd) })}
              data-testid="ablation-fixed-tmax"
            />{' '}
            fixed Tmax (the deadline does not grow)
          </label>
        </fieldset>
        <fieldset>
          <legend>
            Credit over time{' '}
            <Explain>
              The flat Monte-Carlo advantage gives every decision of a rollout the same credit. A critic with GAE discounts: with γ or λ below 1, a handoff
              early in the sprint gets little credit for tests passing much later, and long coordination can collapse.
            </Explain>
          </legend>
          <label className="toggle">
            <input type="checkbox" checked={c.critic} onChange={(e) => set({ critic: e.currentTarget.checked })} data-testid="ablation-critic" /> critic + GAE (
            {gloss('critic + GAE').plain})
          </label>
          {c.critic && (
            <>
              <Slider label="γ (gamma)" value={c.gamma} min={0.8} max={1} step={0.01} onChange={(gamma) => set({ gamma })} testId="ablation-gamma" />
              <Slider label="λ (lambda)" value={c.lambda} min={0.8} max={1} step={0.01} onChange={(lambda) => set({ lambda })} testId="ablation-lambda" />
            </>
          )}
        </fieldset>
        <fieldset>
          <legend>
            Whose reward{' '}
            <Explain>
              Collective: every agent gets the team's return. Individual: each agent gets the tests of its own work, so helping someone else (handing over an
              interface) earns nothing.
            </Explain>
          </legend>
          <SelectField
            label="rewards"
            testId="ablation-rewards"
            value={c.rewards}
            options={['collective', 'individual'] as const}
            onChange={(rewards) => set({ rewards })}
          />
        </fieldset>
        <fieldset>
          <legend>
            Advantage form{' '}
            <Explain>
              dr-grpo: return minus the group mean. grpo: also divided by the group's spread. rloo: each rollout against the mean of the others.
            </Explain>
          </legend>
          <SelectField
            label={`advantage (${gloss('advantage form').plain})`}
            testId="ablation-advantage"
            value={c.advantage}
            options={ADVANTAGES}
            labels={ADVANTAGE_LABELS}
            onChange={(advantage) => set({ advantage })}
          />
        </fieldset>
      </div>
    </details>
  );
}
