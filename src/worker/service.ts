import * as tf from '@tensorflow/tfjs';
import { transfer } from 'comlink';
import { lastCheckpoint, RunRecorder, showcaseModules, structureInfo } from '../core/recorder';
import { checkpointShapeIssue } from '../core/runChecks';
import { cleanRunName, decodeRunFile, encodeRunFile, runFacts } from '../core/runFile';
import type { RunFile, TalkRecord } from '../core/runFormat';
import { costsOf, type Config } from '../rl/config';
import { SwarmPolicy, type PolicyJSON } from '../rl/policy';
import { referenceReturns, talkValue, type References } from '../rl/compare';
import { PolicyActor } from '../rl/actor';
import { NumericFault } from '../rl/numericFault';
import { checkSettings, settingLabel } from '../rl/settingsCheck';
import { Trainer } from '../rl/trainer';
import { localShards, PAGE_SHARDS, pageShards, ShardedTrainer, type ShardPool } from './shardedTrainer';
import { raceOrganisations, scaleOrganisations } from '../sim/race';
import { chooseBackend, type ChooseOptions } from './backends';
import { createProbe } from './probe';
import type {
  BackendChoice,
  BackendReport,
  ConfigApplied,
  EncodedRun,
  RaceReport,
  RaceRequest,
  RaceSwarm,
  ResumeReport,
  RunState,
  WorkerMemory,
  TalkReport,
  ThreadRequest,
  BackendName,
  TrainerApi,
  TrainingFault,
  UpdateMessage,
} from './protocol';

/** What the service trains with: one trainer, or the page's shards behind one trainer's face (shardedTrainer.ts). */
type ServiceTrainer = Trainer | ShardedTrainer;

/** Where the service's training shards run, and how many a run gets on a backend. */
export interface ShardOptions {
  pool: ShardPool;
  plan: (config: Config, backend: BackendName | null) => number;
  /** How many of a run's shards train in a worker of their own (0: all in this thread); for the backend report. */
  ownWorkers: number;
  /** Frees the pool's shards when the backend started trains alone (started again on demand). */
  close?: () => void;
}

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

/** How the service measures what the swarm's talk is worth (rl/compare `talkValue`). */
export interface TalkOptions {
  /** Fewest updates between two measurements while training runs. */
  every: number;
  /** Fresh evaluation tasks per measurement (each played talking and muted). */
  tasks: number;
  /** Most of the training time the measurements may take: `every` stretches when one is slow. */
  share: number;
}

/**
 * Every 10 updates on 8 tasks: one measurement costs a small share of the training time next to
 * the 10 updates it follows; the 5% cap stretches the interval on tiny runs, where a measurement
 * is long beside an update. (It was every 25: the page then showed a swarm that had learnt to
 * coordinate up to 25 updates late, docs/HISTORY.md "The page's evaluation every 10 updates instead of 25".)
 */
export const TALK_DEFAULTS: TalkOptions = { every: 10, tasks: 8, share: 0.05 };

/**
 * Updates to wait before the next talk measurement: `every`, or more when one measurement (`talkMs`)
 * would take more than `share` of the training time at `updateMs` per update.
 */
export function talkInterval(o: TalkOptions, talkMs: number, updateMs: number): number {
  if (!(talkMs > 0) || !(updateMs > 0)) return o.every;
  return Math.max(o.every, Math.ceil(talkMs / (o.share * updateMs)));
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
  private trainer: ServiceTrainer | null = null;
  /** The backend `init` started (what decides whether a run trains in shards). */
  private backend: BackendName | null = null;
  private readonly shards: ShardOptions;
  private state: RunState = 'idle';
  private onUpdate: ((u: UpdateMessage) => void) | null = null;
  private onState: ((s: RunState) => void) | null = null;
  /** Tail of the chain of trainer operations. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The running update loop, if any; `start` returns it. */
  private loop: Promise<TrainingFault | null> | null = null;
  private wantRun = false;
  /** Reference returns by family/agents/deadline. */
  private readonly references = new Map<string, References>();
  private readonly chooseOptions: Partial<ChooseOptions>;
  /** Records the run being trained (updates, showcase episodes, checkpoints) while `record` is on. */
  private recorder: RunRecorder | null = null;
  private record = true;
  private onTalk: ((t: TalkReport) => void) | null = null;
  private readonly talk: TalkOptions;
  /** Updates done when talk was last measured for the current weights (-1: not yet). */
  private talkAt = -1;
  /** Updates done at which the running loop measures talk next. */
  private nextTalk = 0;
  /** A measurement is queued and has not started yet. */
  private talkQueued = false;
  /** init or reset calls under way: the trainer is about to be replaced, so it is not measured. */
  private replacing = 0;
  /** Running mean of an update's milliseconds (what the talk interval is sized against). */
  private updateMs = 0;
  /** Set by the `loseDevice` test hook. */
  private deviceLost = false;
  /** Set by the `poisonNextLoss` test hook. */
  private poisonLoss = false;

  /**
   * @param shards where a run's shards after the first train (default: in this thread) and how many
   * a run gets (default: the page's, `pageShards`).
   */
  constructor(chooseOptions: Partial<ChooseOptions> = {}, talk: Partial<TalkOptions> = {}, shards: Partial<ShardOptions> = {}) {
    this.chooseOptions = chooseOptions;
    this.talk = { ...TALK_DEFAULTS, ...talk };
    this.shards = { pool: localShards, plan: pageShards, ownWorkers: 0, ...shards };
  }

  async subscribe(onUpdate: (u: UpdateMessage) => void, onState: (s: RunState) => void, onTalk?: (t: TalkReport) => void): Promise<void> {
    this.onUpdate = onUpdate;
    this.onState = onState;
    this.onTalk = onTalk ?? null;
    this.deliver(onState, this.state);
  }

  async init(config: Config, backend: BackendChoice, threads: ThreadRequest = 'auto'): Promise<BackendReport> {
    this.replacing++;
    await this.stopLoop();
    return this.exclusive(async () => {
      this.replacing--;
      this.trainer?.dispose();
      this.trainer = null;
      const probe = createProbe(config);
      let report: BackendReport;
      try {
        report = await chooseBackend(backend, () => probe.run(), { ...this.chooseOptions, threads });
      } finally {
        probe.dispose();
      }
      this.backend = report.backend;
      if (report.backend === 'wasm') report = { ...report, shards: { count: PAGE_SHARDS, ownWorkers: this.shards.ownWorkers } };
      else this.shards.close?.();
      await this.fresh(config);
      this.setState('idle');
      return report;
    });
  }

  async ping(): Promise<true> {
    return true;
  }

  async memory(): Promise<WorkerMemory> {
    const m = tf.memory();
    const heap = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null;
    return { tensors: m.numTensors, tensorBytes: m.numBytes, heapBytes: heap, recordedUpdates: this.recorder?.updates ?? 0 };
  }

  async resume(bytes: Uint8Array): Promise<ResumeReport> {
    this.requireTrainer();
    this.wantRun = false;
    const replaced = this.exclusive(async () => {
      const decoded = decodeRunFile(bytes);
      if (!decoded.ok) throw new Error(`the saved run cannot be read: ${decoded.error}`);
      const cp = lastCheckpoint(decoded.run);
      if (!cp) throw new Error('the saved run holds no weights to resume from');
      const run = truncateRun(decoded.run, cp.updates);
      const recorder = RunRecorder.resume(run);
      const config = recorder.currentConfig;
      // Weights that do not fit change nothing; past this check the run is replaced (its shards train the new one).
      const shapeIssue = checkpointShapeIssue(config, cp.weights.shape);
      if (shapeIssue) throw new Error(shapeIssue);
      SwarmPolicy.fromJSON(cp.weights).dispose();
      this.trainer?.dispose();
      this.trainer = null;
      this.trainer = await this.build({ ...config }, cp.weights, cp.updates);
      this.recorder = this.record ? recorder : null;
      this.talkAt = -1;
      this.nextTalk = cp.updates;
      this.settleState();
      return { updates: cp.updates, config, name: run.name };
    });
    await this.stopLoop();
    return replaced;
  }

  /** Test hook: the next update throws as a lost GPU device or WebGL context would. */
  loseDevice(): void {
    this.deviceLost = true;
  }

  /**
   * Test hook: the next update's loss is NaN (its entropy bonus is NaN for that update only), so
   * the trainer's numeric guard stops it as it would a diverged run: the weights go back to their
   * last good values and the update throws a NumericFault.
   */
  poisonNextLoss(): void {
    this.poisonLoss = true;
  }

  async start(): Promise<TrainingFault | null> {
    const t = this.requireTrainer();
    if (this.loop) return this.loop;
    refuseUntrainable(t.config);
    if (t.finished) {
      this.setState('finished');
      return null;
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

  async step(): Promise<TrainingFault | null> {
    refuseUntrainable(this.requireTrainer().config);
    if (this.loop) return null;
    try {
      await this.exclusive(() => this.updateOnce());
    } catch (e) {
      return faultOf(e);
    }
    this.settleState();
    this.queueTalk();
    return null;
  }

  async reset(config?: Config): Promise<void> {
    this.requireTrainer();
    this.replacing++;
    await this.stopLoop();
    await this.exclusive(async () => {
      this.replacing--;
      const next = { ...(config ?? this.requireTrainer().config) };
      this.trainer?.dispose();
      this.trainer = null;
      await this.fresh(next);
      this.setState('idle');
    });
  }

  async setConfig(config: Config): Promise<ConfigApplied> {
    this.requireTrainer();
    return this.exclusive(async () => {
      const t = this.requireTrainer();
      if (t.reconfigure({ ...config })) {
        this.recorder?.setConfig(t.config);
        if (!this.loop) this.settleState();
        return { rebuilt: false, update: t.update };
      }
      t.dispose();
      this.trainer = null;
      await this.fresh(config);
      if (!this.loop) this.setState('idle');
      return { rebuilt: true, update: 0 };
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
    await this.exclusive(async () => {
      this.requireTrainer().loadWeights(weights);
      this.talkAt = -1;
      this.queueTalk();
    });
  }

  async resetWith(config: Config, weights: PolicyJSON): Promise<void> {
    this.requireTrainer();
    // Queued at once (not after the running loop has stopped), so that a command sent after this one
    // runs on the new trainer; the loop stops after its update in flight.
    this.wantRun = false;
    const replaced = this.exclusive(async () => {
      // The weights are read before the running trainer is touched: weights that do not fit change nothing.
      const shapeIssue = checkpointShapeIssue(config, weights.shape);
      if (shapeIssue) throw new Error(shapeIssue);
      SwarmPolicy.fromJSON(weights).dispose();
      this.trainer?.dispose();
      this.trainer = null;
      await this.fresh({ ...config }, false, weights);
      this.setState('idle');
      this.queueTalk();
    });
    await this.stopLoop();
    await replaced;
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
      // Moved to the page, not copied: a long run's recording is megabytes, sent every few seconds.
      return transfer({ bytes, facts: runFacts(run, bytes.length) }, [bytes.buffer as ArrayBuffer]);
    });
  }

  async race(request: RaceRequest, swarm?: RaceSwarm): Promise<RaceReport> {
    if (!swarm) this.requireTrainer();
    return this.exclusive(async () => {
      const t0 = performance.now();
      let policy: SwarmPolicy;
      let own = false;
      let c: Config;
      let updates: number;
      if (swarm) {
        policy = SwarmPolicy.fromJSON(swarm.weights);
        own = true;
        c = swarm.config;
        updates = swarm.updates;
      } else {
        const t = this.requireTrainer();
        policy = t.policy;
        c = t.config;
        updates = t.update;
      }
      try {
        const opts = { tasks: c.family, threshold: request.threshold, horizon: request.horizon, count: request.tasks, seed: 1 };
        const race = await raceOrganisations({ ...opts, agents: c.agents, swarm: new PolicyActor(policy, 1) });
        const scaling = await scaleOrganisations({ ...opts, agentCounts: request.agentCounts, swarm: () => new PolicyActor(policy, 1) });
        const report: RaceReport = { family: c.family, agents: c.agents, updates, race, scaling, ms: performance.now() - t0 };
        if (swarm) report.swarm = swarm.name;
        return report;
      } finally {
        if (own) policy.dispose();
      }
    });
  }

  /**
   * A trainer for `config` from `weights` (default: the seed's fresh ones) at `update` updates done:
   * in shards where the plan says so (the page's: flat runs on wasm), else alone.
   */
  private async build(config: Config, weights?: PolicyJSON, update = 0): Promise<ServiceTrainer> {
    const count = this.shards.plan(config, this.backend);
    if (count > 1) return ShardedTrainer.start(config, this.shards.pool(count), { weights, update });
    const t = new Trainer(config);
    try {
      if (weights) t.loadWeights(weights);
    } catch (e) {
      t.dispose();
      throw e;
    }
    t.update = update;
    return t;
  }

  /** A new trainer for `config` (from `weights` if given), and a new recording of it; what its talk is worth is measured next. */
  private async fresh(config: Config, measure = true, weights?: PolicyJSON): Promise<void> {
    this.trainer = await this.build({ ...config }, weights);
    this.recorder = this.record ? new RunRecorder(this.trainer.config) : null;
    this.talkAt = -1;
    this.nextTalk = 0;
    if (measure) this.queueTalk();
  }

  /**
   * Queues one talk measurement of the trainer as it will be then (at most one waits at a time), if
   * someone listens. It runs between updates like every other operation.
   */
  private queueTalk(): void {
    if (!this.onTalk || this.talkQueued) return;
    this.talkQueued = true;
    void this.exclusive(async () => {
      this.talkQueued = false;
      await this.measureTalk();
    });
  }

  /** True when the running loop should measure talk now (its interval has passed). */
  private talkDue(): boolean {
    const t = this.trainer;
    return !!t && !!this.onTalk && t.update !== this.talkAt && t.update >= this.nextTalk;
  }

  /**
   * Plays the current policy on fresh evaluation tasks at the run's final deadline, talking and
   * muted, under the run's structure; records and sends the result. Nothing happens without a
   * trainer or a listener, or when the current weights were measured already. Call it exclusively.
   */
  private async measureTalk(): Promise<void> {
    const t = this.trainer;
    const send = this.onTalk;
    if (!t || !send || t.update === this.talkAt || this.replacing > 0) return;
    const c = t.config;
    const t0 = performance.now();
    try {
      const v = await talkValue(t.policy, {
        family: c.family,
        agents: c.agents,
        tmax: c.tmaxEnd,
        tasks: this.talk.tasks,
        seed: c.seed,
        ...t.evaluationSetup(),
      });
      const ms = performance.now() - t0;
      this.talkAt = t.update;
      this.nextTalk = t.update + talkInterval(this.talk, ms, this.updateMs);
      const record: TalkRecord = {
        updates: t.update,
        tmax: c.tmaxEnd,
        tasks: this.talk.tasks,
        ret: v.ret,
        muted: v.muted,
        neededShare: v.neededShare,
        messages: v.messages,
        useful: v.useful,
        duplicate: v.duplicate,
        scripted: v.scripted,
      };
      this.recorder?.addTalk(record);
      this.deliver(send, { ...record, ms });
    } catch (err) {
      // A failed measurement must not stop training; the next one is tried at the next interval.
      this.nextTalk = t.update + this.talk.every;
      console.warn('trainer worker: measuring what talk is worth failed', err);
    }
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
    const t0 = performance.now();
    if (this.deviceLost) {
      this.deviceLost = false;
      throw new Error('the GPU device was lost (injected by a test)');
    }
    const { metrics, events, showcaseTask, showcaseWork, structure } = await this.poisoned(t, () => t.step());
    const modules = showcaseModules(showcaseTask, showcaseWork);
    const c = t.config;
    // The reference organisations play under the run's costs, as its evaluation does.
    const costs = costsOf(c);
    const key = `${c.family}/${c.agents}/${metrics.tmax}/${JSON.stringify(costs)}`;
    let references = this.references.get(key);
    if (!references) {
      references = await referenceReturns(c.family, c.agents, metrics.tmax, 16, costs);
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
    const ms = performance.now() - t0;
    this.updateMs = this.updateMs > 0 ? 0.8 * this.updateMs + 0.2 * ms : ms;
    return t.finished;
  }

  /** Runs `f`, with a NaN entropy bonus if `poisonNextLoss` asked for one (the settings are put back after). */
  private async poisoned<T>(t: ServiceTrainer, f: () => Promise<T>): Promise<T> {
    if (!this.poisonLoss) return f();
    this.poisonLoss = false;
    const config = t.config;
    t.reconfigure({ ...config, entropy: NaN });
    try {
      return await f();
    } finally {
      t.reconfigure(config);
    }
  }

  private async runLoop(): Promise<TrainingFault | null> {
    try {
      while (this.wantRun) {
        if (await this.exclusive(() => this.updateOnce())) break;
        if (this.wantRun && this.talkDue()) await this.exclusive(() => this.measureTalk());
        await macrotask();
      }
    } catch (e) {
      return faultOf(e);
    }
    return null;
  }

  private loopEnded(loop: Promise<TrainingFault | null>): void {
    if (this.loop !== loop) return;
    this.loop = null;
    this.wantRun = false;
    this.settleState();
    // Paused or finished: the figures are brought up to the last update.
    this.queueTalk();
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

  private requireTrainer(): ServiceTrainer {
    if (!this.trainer) throw new Error('the trainer is not initialised: call init first');
    return this.trainer;
  }
}

/**
 * The fault an update stopped for, as the page receives it: a NumericFault becomes its report (the
 * worker is fine); any other error is rethrown (it rejects the call: a failure of the backend).
 */
export function faultOf(e: unknown): TrainingFault {
  if (!(e instanceof NumericFault)) throw e;
  return { kind: 'numeric', site: e.site, update: e.update, lr: e.settings.lr, gradClip: e.settings.gradClip, message: e.message };
}

/** Throws, before any update runs, when `config` cannot train (e.g. it would need more memory than a backend has). */
function refuseUntrainable(config: Config): void {
  const { errors } = checkSettings(config, settingLabel);
  if (errors.length) throw new Error(errors.join(' '));
}

/**
 * `run` cut back to its first `updates` updates (metrics, episodes, settings changes, talk and
 * checkpoints after that are dropped), e.g. to resume it from a checkpoint older than its last update.
 */
export function truncateRun(run: RunFile, updates: number): RunFile {
  const last = run.metrics[run.metrics.length - 1]?.update ?? -1;
  if (last < updates) return run;
  return {
    ...run,
    metrics: run.metrics.filter((m) => m.update < updates),
    episodes: { ...run.episodes, items: run.episodes.items.filter((e) => e.update < updates) },
    checkpoints: { ...run.checkpoints, items: run.checkpoints.items.filter((c) => c.updates <= updates) },
    configChanges: run.configChanges.filter((c) => c.update <= updates),
    ...(run.talk ? { talk: run.talk.filter((t) => t.updates <= updates) } : {}),
  };
}
