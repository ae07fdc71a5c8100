import type { RecordedUpdate } from '../core/recorder';
import type { RunFacts } from '../core/runFile';
import type { ModuleInfo, TalkRecord } from '../core/runFormat';
import type { Config } from '../rl/config';
import type { FaultSite } from '../rl/numericFault';
import type { PolicyJSON } from '../rl/policy';
import type { RaceResult, ScalingPoint } from '../sim/race';

/** TF.js backends the app can train on, in order of preference. */
export const BACKENDS = ['webgpu', 'webgl', 'wasm', 'cpu'] as const;
export type BackendName = (typeof BACKENDS)[number];
/** `auto` measures and picks; a name forces that backend (falling through on failure). */
export type BackendChoice = BackendName | 'auto';

/** Which backend runs, and why: shown in the app's badge. */
export interface BackendReport {
  backend: BackendName;
  /** One sentence for the badge, e.g. "WASM: WebGPU adapter is a software fallback, 19x slower here". */
  reason: string;
  /** Measured ms per forward+backward step of the real model, per backend tried (null: failed). */
  timings: Partial<Record<BackendName, number | null>>;
  /** Backends that failed to start, with their error, in the order tried. */
  notices: string[];
  /** Threads the wasm backend computes with (1: single-threaded), when wasm runs. */
  threads?: number;
  /** Why wasm runs with that many threads, in plain words (e.g. "the page is not cross-origin isolated"). */
  threadsWhy?: string;
  /** Where the link asked for more threads than wasm runs: what was asked and why not, in a few words ("asked for 64; this machine has 2 cores"). */
  threadsNote?: string;
  /**
   * Where flat runs of two task groups or more train in shards (wasm only, shardedTrainer.ts): how
   * many shards, and how many of them train in a worker of their own beside the trainer's.
   */
  shards?: { count: number; ownWorkers: number };
  /**
   * Whether the learn step's own wasm kernels run (rl/wasmKernels.ts: three passes in one each, the
   * same numbers); false where the wasm backend could not start their module and TF.js's ops run. Wasm only.
   */
  kernels?: boolean;
  /** True when the backend is a GPU emulated in software (a fallback WebGPU adapter, a SwiftShader or llvmpipe WebGL renderer). */
  software?: boolean;
  /** Where a backend was chosen by hand and did not start: which, and why, in a few words ("this browser has no WebGPU"). */
  fellBack?: { from: BackendName; why: string };
}

/** Threads for the wasm backend: a number, or `auto` (one per core but one, up to a limit, where the page allows threads). */
export type ThreadRequest = number | 'auto';

/** One module of the showcase task as the views need it (defined with the run-file format). */
export type { ModuleInfo };

/**
 * What the worker streams after every update: the update's numbers, the showcase rollout's event
 * log, modules and structure, and the reference organisations at its deadline. It is exactly what
 * the recorder records.
 */
export type UpdateMessage = RecordedUpdate;

/** A recorded run, encoded as a run file, with the facts a library lists about it. */
export interface EncodedRun {
  bytes: Uint8Array;
  facts: RunFacts;
}

/** What to race: the share of tests that counts as acceptable, and how long the N-agent organisations may run. */
export interface RaceRequest {
  threshold: number;
  /** Minutes for the N-agent organisations; the single chain gets agents x horizon (the same agent-minutes). */
  horizon: number;
  /** Tasks per organisation. */
  tasks: number;
  /** Swarm sizes of the scaling view. */
  agentCounts: number[];
}

/** A recorded swarm to race instead of the one being trained (e.g. the run being replayed). */
export interface RaceSwarm {
  /** The run's name, shown with the result. */
  name: string;
  config: Config;
  updates: number;
  weights: PolicyJSON;
}

/** What the worker holds (for the soak benchmark): live tensors and their bytes, its JS heap where the browser says, updates recorded. */
export interface WorkerMemory {
  tensors: number;
  tensorBytes: number;
  heapBytes: number | null;
  recordedUpdates: number;
}

/** What `resume` restored: the update it goes on from, the settings in force and the run's name. */
export interface ResumeReport {
  updates: number;
  config: Config;
  name: string;
}

/** The organisations raced on the current task family, with the swarm as trained so far. */
export interface RaceReport {
  /** The recorded run whose swarm raced (absent: the swarm being trained). */
  swarm?: string;
  family: string;
  agents: number;
  /** Updates the swarm had when it raced. */
  updates: number;
  race: RaceResult[];
  scaling: ScalingPoint[];
  /** Milliseconds the race took in the worker. */
  ms: number;
}

/**
 * What the swarm's talk is worth as trained so far (see TalkRecord: played on fresh tasks talking
 * and muted), sent now and then while training; it is exactly what the recorder records, plus the
 * milliseconds the measurement took in the worker.
 */
export interface TalkReport extends TalkRecord {
  ms: number;
}

/**
 * The trainer's numeric guard stopped an update: NaN or Infinity turned up at `site` in update
 * `update`. The weights are back at their last good values and the worker is fine; training can go
 * on after a change of settings (e.g. a lower learning rate). `lr` and `gradClip` were in force.
 */
export interface NumericFaultReport {
  kind: 'numeric';
  site: FaultSite;
  update: number;
  lr: number;
  gradClip: number;
  /** What happened, the likely cause and the way on, in one paragraph for the page. */
  message: string;
}

/**
 * Why updates stopped without a failure of the worker, as `start` and `step` answer it (null: they
 * did not stop for a fault). A failure of the worker or its backend rejects instead.
 */
export type TrainingFault = NumericFaultReport;

/**
 * What `setConfig` did with a change: the same trainer goes on with the new settings from update
 * `update` (0-based, the next one it runs), or the change was structural and `rebuilt` a fresh
 * trainer (a new run, from update 0).
 */
export interface ConfigApplied {
  rebuilt: boolean;
  update: number;
}

/** Worker state as the UI shows it. */
export type RunState = 'idle' | 'running' | 'paused' | 'finished';

/**
 * The training worker's API (exposed with Comlink). Commands take effect between updates; the
 * worker never blocks the main thread.
 */
export interface TrainerApi {
  /** Picks a backend (wasm with `threads`, default auto) and builds a trainer for `config`. */
  init(config: Config, backend: BackendChoice, threads?: ThreadRequest): Promise<BackendReport>;
  /** Runs updates until paused or finished (null), or until the trainer stops them for a fault. */
  start(): Promise<TrainingFault | null>;
  pause(): Promise<void>;
  /** Runs exactly one update (when paused or idle); the fault that stopped it, if the trainer stopped it. */
  step(): Promise<TrainingFault | null>;
  /** Discards the trainer and builds a fresh one (optionally with a new config). */
  reset(config?: Config): Promise<void>;
  /**
   * Replaces the config between updates (deadline schedule, learning settings); a structural change
   * rebuilds the trainer. Says which it did, and from which update the new settings apply.
   */
  setConfig(config: Config): Promise<ConfigApplied>;
  /** The policy's weights now, and how many updates made them (between updates). */
  weights(): Promise<{ updates: number; weights: PolicyJSON }>;
  /** Replaces the policy's weights (same network size), e.g. to continue training a recorded swarm. */
  loadWeights(weights: PolicyJSON): Promise<void>;
  /**
   * A fresh trainer for `config` that starts from `weights`, in one step: nothing queued after it
   * (a Step clicked meanwhile) can run on the fresh trainer's random weights.
   */
  resetWith(config: Config, weights: PolicyJSON): Promise<void>;
  /** Records the run from now on (on by default), or stops recording it. */
  setRecording(on: boolean): Promise<void>;
  /**
   * The run recorded so far, with the current weights as its last checkpoint, encoded as a run file
   * (the encoding happens here, off the page's thread); null when nothing is recorded yet.
   * `name` names the run (the name it has in the library).
   */
  recording(name?: string): Promise<EncodedRun | null>;
  /**
   * Races the single chain, best-of-N, the scripted organisation and the swarm as trained so far
   * (between updates), or `swarm`, a recorded one, on its own task family and team size.
   */
  race(request: RaceRequest, swarm?: RaceSwarm): Promise<RaceReport>;
  /** Answers at once (between updates): the page's watchdog asks it whether the worker is alive. */
  ping(): Promise<true>;
  /** Live tensors and memory of the worker now (for the soak benchmark). */
  memory(): Promise<WorkerMemory>;
  /**
   * Carries on a recorded run (encoded run file): a trainer with its settings in force and the
   * weights and update count of its last checkpoint, recording on into the same run. Updates after
   * that checkpoint are dropped from the recording. Leaves it paused (or idle at update 0).
   */
  resume(bytes: Uint8Array): Promise<ResumeReport>;
  /**
   * Registers the receiver of updates, state changes and (optionally) talk measurements (wrap each
   * with Comlink.proxy). Talk is measured only while `onTalk` is registered: after a fresh trainer or
   * loaded weights, every so often while training runs, after a single step and when the loop stops.
   */
  subscribe(onUpdate: (u: UpdateMessage) => void, onState: (s: RunState) => void, onTalk?: (t: TalkReport) => void): Promise<void>;
}
