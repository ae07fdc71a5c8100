import { RunRecorder, showcaseModules, structureInfo } from '../core/recorder';
import { cleanRunName, encodeRunFile, runFacts } from '../core/runFile';
import type { Config } from '../rl/config';
import type { PolicyJSON } from '../rl/policy';
import { referenceReturns, type References } from '../rl/compare';
import { PolicyActor } from '../rl/actor';
import { Trainer } from '../rl/trainer';
import { raceOrganisations, scaleOrganisations } from '../sim/organisations';
import { chooseBackend, type ChooseOptions } from './backends';
import { createProbe } from './probe';
import type { BackendChoice, BackendReport, EncodedRun, RaceReport, RaceRequest, RunState, TrainerApi, UpdateMessage } from './protocol';

/** Resolves after one macrotask, so queued messages (pause, setConfig, ...) are handled first. */
export function macrotask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/**
 * The training service behind the worker's Comlink endpoint, free of worker APIs so it also runs
 * in Node. Every touch of the trainer (an update, a reset, a config change) runs one at a time in
 * order, so commands take effect between updates and never in the middle of one.
 *
 * States: `init` and `reset` leave it `idle`; `start` makes it `running` until paused or finished;
 * `step` and `pause` leave it `paused` (or `finished`). A structural `setConfig` rebuilds the trainer
 * and keeps running if it was; otherwise it goes `idle`.
 */
export class TrainerService implements TrainerApi {
  private trainer: Trainer | null = null;
  private state: RunState = 'idle';
  private onUpdate: ((u: UpdateMessage) => void) | null = null;
  private onState: ((s: RunState) => void) | null = null;
  /** Tail of the chain of trainer operations. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The running update loop, if any; `start` returns it. */
  private loop: Promise<void> | null = null;
  private wantRun = false;
  /** Reference returns by family/agents/deadline. */
  private readonly references = new Map<string, References>();
  private readonly chooseOptions: Partial<ChooseOptions>;
  /** Records the run being trained (updates, showcase episodes, checkpoints) while `record` is on. */
  private recorder: RunRecorder | null = null;
  private record = true;

  constructor(chooseOptions: Partial<ChooseOptions> = {}) {
    this.chooseOptions = chooseOptions;
  }

  async subscribe(onUpdate: (u: UpdateMessage) => void, onState: (s: RunState) => void): Promise<void> {
    this.onUpdate = onUpdate;
    this.onState = onState;
    this.deliver(onState, this.state);
  }

  async init(config: Config, backend: BackendChoice): Promise<BackendReport> {
    await this.stopLoop();
    return this.exclusive(async () => {
      this.trainer?.dispose();
      this.trainer = null;
      const probe = createProbe(config);
      let report: BackendReport;
      try {
        report = await chooseBackend(backend, () => probe.run(), this.chooseOptions);
      } finally {
        probe.dispose();
      }
      this.fresh(config);
      this.setState('idle');
      return report;
    });
  }

  async start(): Promise<void> {
    const t = this.requireTrainer();
    if (this.loop) return this.loop;
    if (t.finished) {
      this.setState('finished');
      return;
    }
    this.wantRun = true;
    this.setState('running');
    const loop = this.runLoop();
    this.loop = loop;
    void loop.then(
      () => this.loopEnded(loop),
      () => this.loopEnded(loop),
    );
    return loop;
  }

  async pause(): Promise<void> {
    await this.stopLoop();
  }

  async step(): Promise<void> {
    this.requireTrainer();
    if (this.loop) return;
    await this.exclusive(() => this.updateOnce());
    this.settleState();
  }

  async reset(config?: Config): Promise<void> {
    this.requireTrainer();
    await this.stopLoop();
    await this.exclusive(async () => {
      const next = { ...(config ?? this.requireTrainer().config) };
      this.trainer?.dispose();
      this.trainer = null;
      this.fresh(next);
      this.setState('idle');
    });
  }

  async setConfig(config: Config): Promise<void> {
    this.requireTrainer();
    await this.exclusive(async () => {
      const t = this.requireTrainer();
      if (t.reconfigure({ ...config })) {
        this.recorder?.setConfig(t.config);
        if (!this.loop) this.settleState();
        return;
      }
      t.dispose();
      this.trainer = null;
      this.fresh(config);
      if (!this.loop) this.setState('idle');
    });
  }

  async weights(): Promise<{ updates: number; weights: PolicyJSON }> {
    this.requireTrainer();
    return this.exclusive(async () => {
      const t = this.requireTrainer();
      return { updates: t.update, weights: t.policy.toJSON() };
    });
  }

  async loadWeights(weights: PolicyJSON): Promise<void> {
    this.requireTrainer();
    await this.exclusive(async () => this.requireTrainer().loadWeights(weights));
  }

  async setRecording(on: boolean): Promise<void> {
    await this.exclusive(async () => {
      this.record = on;
      if (!on) this.recorder = null;
      else if (!this.recorder && this.trainer) this.recorder = new RunRecorder(this.trainer.config);
    });
  }

  async recording(name?: string): Promise<EncodedRun | null> {
    return this.exclusive(async () => {
      const t = this.trainer;
      const r = this.recorder;
      if (!t || !r || r.updates === 0) return null;
      r.addCheckpoint(t.update, t.policy.toJSON());
      if (name !== undefined) r.name = cleanRunName(name, r.name);
      const run = r.snapshot();
      const bytes = encodeRunFile(run);
      return { bytes, facts: runFacts(run, bytes.length) };
    });
  }

  async race(request: RaceRequest): Promise<RaceReport> {
    this.requireTrainer();
    return this.exclusive(async () => {
      const t = this.requireTrainer();
      const t0 = performance.now();
      const c = t.config;
      const opts = { tasks: c.family, threshold: request.threshold, horizon: request.horizon, count: request.tasks, seed: 1 };
      const race = await raceOrganisations({ ...opts, agents: c.agents, swarm: new PolicyActor(t.policy, 1) });
      const scaling = await scaleOrganisations({ ...opts, agentCounts: request.agentCounts, swarm: () => new PolicyActor(t.policy, 1) });
      return { family: c.family, agents: c.agents, updates: t.update, race, scaling, ms: performance.now() - t0 };
    });
  }

  /** A new trainer for `config`, and a new recording of it. */
  private fresh(config: Config): void {
    this.trainer = new Trainer({ ...config });
    this.recorder = this.record ? new RunRecorder(this.trainer.config) : null;
  }

  /** Runs `f` after every operation queued before it, whether those succeeded or failed. */
  private exclusive<T>(f: () => Promise<T>): Promise<T> {
    const run = this.queue.then(f, f);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** One update; returns true when the run has nothing left to do. */
  private async updateOnce(): Promise<boolean> {
    const t = this.trainer;
    if (!t || t.finished) return true;
    const { metrics, events, showcaseTask, showcaseWork, structure } = await t.step();
    const modules = showcaseModules(showcaseTask, showcaseWork);
    const c = t.config;
    const key = `${c.family}/${c.agents}/${metrics.tmax}`;
    let references = this.references.get(key);
    if (!references) {
      references = await referenceReturns(c.family, c.agents, metrics.tmax);
      this.references.set(key, references);
    }
    const message: UpdateMessage = { metrics, events, modules, total: t.totalUpdates, references };
    const info = structureInfo(structure);
    if (info) message.structure = info;
    const r = this.recorder;
    if (r) {
      r.push(message);
      if (r.wantsCheckpoint(t.update)) r.addCheckpoint(t.update, t.policy.toJSON());
    }
    if (this.onUpdate) this.deliver(this.onUpdate, message);
    return t.finished;
  }

  private async runLoop(): Promise<void> {
    while (this.wantRun) {
      if (await this.exclusive(() => this.updateOnce())) break;
      await macrotask();
    }
  }

  private loopEnded(loop: Promise<void>): void {
    if (this.loop !== loop) return;
    this.loop = null;
    this.wantRun = false;
    this.settleState();
  }

  /** Asks the loop to stop after the update in flight and waits for it (its error goes to `start`'s caller). */
  private async stopLoop(): Promise<void> {
    this.wantRun = false;
    const loop = this.loop;
    if (loop) await loop.catch(() => undefined);
  }

  /** The state of a trainer that is not running: finished, or paused once it has done an update. */
  private settleState(): void {
    const t = this.trainer;
    if (!t) return;
    if (t.finished) this.setState('finished');
    else if (t.update > 0) this.setState('paused');
    else this.setState('idle');
  }

  private setState(s: RunState): void {
    if (s === this.state) return;
    this.state = s;
    if (this.onState) this.deliver(this.onState, s);
  }

  /** Calls a subscriber (a Comlink proxy when remote) without waiting for it. */
  private deliver<T>(f: (v: T) => void, v: T): void {
    Promise.resolve()
      .then(() => f(v))
      .catch((err: unknown) => console.warn('trainer worker: a subscriber call failed', err));
  }

  private requireTrainer(): Trainer {
    if (!this.trainer) throw new Error('the trainer is not initialised: call init first');
    return this.trainer;
  }
}
