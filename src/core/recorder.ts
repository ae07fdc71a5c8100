/**
 * Records a training run as it streams, into a run file (see runFile.ts and docs/RUNFILE.md):
 * every update's metrics, the showcase episodes and policy checkpoints thinned so that memory stays
 * bounded however long the run, and the settings changed on the way.
 */
import type { References } from '../rl/compare';
import { scheduleOf, type Config } from '../rl/config';
import type { PolicyJSON } from '../rl/policy';
import type { UpdateMetrics } from '../rl/metrics';
import type { SimEvent } from '../sim/events';
import type { StructureView } from '../sim/structure';
import type { Task } from '../sim/task';
import { runName } from './runName';
import { cleanRunName, compactWeights } from './runFile';
import {
  RUN_FORMAT,
  RUN_VERSION,
  type Checkpoint,
  type ConfigChange,
  type ModuleInfo,
  type RunFile,
  type ShowcaseEpisode,
  type StructureInfo,
  type TalkRecord,
  type ThinningRule,
} from './runFormat';

/** What the trainer streams after every update (the worker's `UpdateMessage` fits). */
export interface RecordedUpdate {
  metrics: UpdateMetrics;
  events: SimEvent[];
  modules: ModuleInfo[];
  /** Updates planned in all (imitation + RLCR). */
  total: number;
  references: References;
  /** The structure's part of the showcase rollout (absent when flat). */
  structure?: StructureInfo;
}

/**
 * What the views need of a structure's showcase view (the islands' own tasks are left out: the
 * views draw island 0's task and every island's agents).
 */
export function structureInfo(v: StructureView | undefined): StructureInfo | undefined {
  if (!v || v.kind === 'flat') return undefined;
  const out: StructureInfo = { kind: v.kind };
  if (v.islandOf) out.islandOf = [...v.islandOf];
  if (v.headCount) out.headCount = [...v.headCount];
  if (v.assignment) out.assignment = [...v.assignment];
  if (v.criticalSteps !== undefined) out.criticalSteps = v.criticalSteps;
  return out;
}

/** How much a recorder keeps. Every field has a default. */
export interface RecorderOptions {
  /** Name of the run (plain text; cut to MAX_NAME_LENGTH). Default: from the config. */
  name?: string;
  /** When the run was recorded. Default: now. */
  created?: Date;
  /** Showcase episodes kept at multiples of the stride (stride 1 until there are more). Default 256. */
  maxEpisodes?: number;
  /** Checkpoints are wanted every this many updates (doubling when too many). Default 50. */
  checkpointEvery?: number;
  /** Most checkpoints kept at multiples of the stride. Default 16. */
  maxCheckpoints?: number;
  /**
   * Bytes of JSON the kept checkpoints may take; fixed with the first checkpoint's size, it lowers
   * `maxCheckpoints` for large policies. Default 64 MB.
   */
  checkpointBudgetBytes?: number;
}

export const DEFAULT_MAX_EPISODES = 256;
export const DEFAULT_CHECKPOINT_EVERY = 50;
export const DEFAULT_MAX_CHECKPOINTS = 16;
export const DEFAULT_CHECKPOINT_BUDGET_BYTES = 64 * 1024 * 1024;

/**
 * A growing sequence thinned by a ThinningRule: items at multiples of the stride, plus the latest.
 * The stride starts at `every` and doubles whenever more than `maxKept` multiples are held.
 */
export class Thinned<T> {
  readonly every: number;
  maxKept: number;
  stride: number;
  private kept: { pos: number; item: T }[] = [];
  private latest: { pos: number; item: T } | null = null;

  constructor(every: number, maxKept: number) {
    if (!(Number.isInteger(every) && every >= 1 && Number.isInteger(maxKept) && maxKept >= 1))
      throw new Error(`thinning needs positive integers (every ${every}, maxKept ${maxKept})`);
    this.every = every;
    this.maxKept = maxKept;
    this.stride = every;
  }

  /** The rule as recorded in the file. */
  get rule(): ThinningRule {
    return { every: this.every, maxKept: this.maxKept, stride: this.stride };
  }

  /** True when an item at `pos` would be kept beyond being the latest. */
  wants(pos: number): boolean {
    return pos % this.stride === 0;
  }

  /** Position of the newest item, or -1. */
  get lastPos(): number {
    return this.latest?.pos ?? this.kept[this.kept.length - 1]?.pos ?? -1;
  }

  /** Adds the item at `pos` (after every earlier one; the same position replaces the newest item). */
  add(pos: number, item: T): void {
    const last = this.lastPos;
    if (pos < last) throw new Error(`position ${pos} is before the newest item (${last})`);
    if (pos === last) {
      if (this.latest) this.latest = null;
      else this.kept.pop();
    }
    this.latest = null;
    const entry = { pos, item };
    if (!this.wants(pos)) {
      this.latest = entry;
      return;
    }
    this.kept.push(entry);
    while (this.kept.length > this.maxKept) {
      this.stride *= 2;
      this.kept = this.kept.filter((e) => e.pos % this.stride === 0);
    }
    if (this.kept[this.kept.length - 1] !== entry) this.latest = entry;
  }

  /** Number of items held. */
  /**
   * A thinning rebuilt from what a run file kept (`rule` and its items at positions `pos(item)`,
   * oldest first), so a resumed recording keeps thinning where the file left off.
   */
  static restore<T>(rule: ThinningRule, items: readonly T[], pos: (item: T) => number): Thinned<T> {
    const t = new Thinned<T>(rule.every, rule.maxKept);
    t.stride = rule.stride;
    for (const item of items) {
      const p = pos(item);
      if (p % t.stride === 0) t.kept.push({ pos: p, item });
      else t.latest = { pos: p, item };
    }
    return t;
  }

  get size(): number {
    return this.kept.length + (this.latest ? 1 : 0);
  }

  /** The held items in position order. */
  items(): T[] {
    const out = this.kept.map((e) => e.item);
    if (this.latest) out.push(this.latest.item);
    return out;
  }
}

/**
 * The record of a run's settings changes (`changes`, after its first settings `first`) with
 * `config` in force from update `update` on: the one rule of what a change records, kept by the
 * recorder and by the page for the live run's markers. A change at the update of the last one
 * replaces it; a change back to the settings before it records nothing. Returns a new list.
 */
export function withConfigChange(first: Config, changes: readonly ConfigChange[], update: number, config: Config): ConfigChange[] {
  const same = (a: Config, b: Config) => JSON.stringify(a) === JSON.stringify(b);
  if (same(config, changes[changes.length - 1]?.config ?? first)) return changes.slice();
  const out = changes[changes.length - 1]?.update === update ? changes.slice(0, -1) : changes.slice();
  if (!same(out[out.length - 1]?.config ?? first, config)) out.push({ update, config: { ...config } });
  return out;
}

/**
 * Accumulates a training run: `push` every update as it arrives, `setConfig` when settings change
 * mid-run, `addCheckpoint` with the policy weights when `wantsCheckpoint` says so and once at the end,
 * and `snapshot` at any time for a complete run file. Memory is bounded except for the metrics
 * (about 0.4 KB per update, all kept). A fresh trainer (a reset) needs a fresh recorder.
 */
export class RunRecorder {
  /** The run's name (plain text), used by `snapshot`. */
  name: string;
  readonly created: string;
  private readonly config: Config;
  private current: Config;
  private readonly changes: ConfigChange[] = [];
  private readonly metrics: UpdateMetrics[] = [];
  private episodes: Thinned<ShowcaseEpisode>;
  private checkpoints: Thinned<Checkpoint>;
  private readonly talk: TalkRecord[] = [];
  private readonly budget: number;
  private sized = false;
  private total: number;

  constructor(config: Config, options: RecorderOptions = {}) {
    this.config = { ...config };
    this.current = this.config;
    const created = options.created ?? new Date();
    this.name = cleanRunName(options.name ?? '', runName(config, created));
    this.created = created.toISOString();
    this.episodes = new Thinned(1, options.maxEpisodes ?? DEFAULT_MAX_EPISODES);
    this.checkpoints = new Thinned(options.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY, options.maxCheckpoints ?? DEFAULT_MAX_CHECKPOINTS);
    this.budget = options.checkpointBudgetBytes ?? DEFAULT_CHECKPOINT_BUDGET_BYTES;
    this.total = config.prior + config.updates;
  }

  /** Updates recorded so far. */
  /**
   * A recorder that carries on recording `run` (e.g. after the worker that recorded it crashed, or
   * after a reload), as if it had recorded it itself: the same name, start time, settings changes,
   * thinning and measurements. The next update it accepts follows the run's last one.
   */
  static resume(run: RunFile): RunRecorder {
    const r = new RunRecorder(run.config, {
      name: run.name,
      created: new Date(run.created),
      maxEpisodes: run.episodes.rule.maxKept,
      checkpointEvery: run.checkpoints.rule.every,
      maxCheckpoints: run.checkpoints.rule.maxKept,
    });
    r.changes.push(...run.configChanges.map((c) => ({ update: c.update, config: { ...c.config } })));
    r.current = r.changes[r.changes.length - 1]?.config ?? r.config;
    r.metrics.push(...run.metrics.map((m) => ({ ...m })));
    r.episodes = Thinned.restore(run.episodes.rule, run.episodes.items, (e) => e.update);
    r.checkpoints = Thinned.restore(run.checkpoints.rule, run.checkpoints.items, (c) => c.updates);
    r.sized = run.checkpoints.items.length > 0;
    r.talk.push(...(run.talk ?? []).map((t) => ({ ...t })));
    r.total = run.totalUpdates;
    return r;
  }

  /** The settings in force now (the run's first settings with every recorded change applied). */
  get currentConfig(): Config {
    return { ...this.current };
  }

  get updates(): number {
    return this.metrics.length;
  }

  /** Index of the next update expected by `push`. */
  get nextUpdate(): number {
    return this.metrics.length ? this.metrics[this.metrics.length - 1].update + 1 : 0;
  }

  /**
   * Records one update. Updates must arrive in order without gaps (the first may be any index, for
   * a run continued from a checkpoint); throws otherwise.
   */
  push(u: RecordedUpdate): void {
    const m = u.metrics;
    if (this.metrics.length && m.update !== this.nextUpdate)
      throw new Error(`update ${m.update} arrived after update ${this.nextUpdate - 1}: a new run needs a new recorder`);
    this.metrics.push({ ...m });
    this.total = u.total;
    const episode: ShowcaseEpisode = { update: m.update, tmax: m.tmax, events: u.events, modules: u.modules, references: u.references };
    if (u.structure) episode.structure = u.structure;
    this.episodes.add(m.update, episode);
  }

  /** Notes settings that apply from the next update on (nothing is recorded if they did not change). */
  setConfig(config: Config): void {
    if (JSON.stringify(config) === JSON.stringify(this.current)) return;
    const next = withConfigChange(this.config, this.changes, this.nextUpdate, config);
    this.changes.length = 0;
    this.changes.push(...next);
    this.current = { ...config };
  }

  /** True when weights taken after `updates` updates would be kept (read them back only then). */
  wantsCheckpoint(updates: number): boolean {
    return updates > 0 && this.checkpoints.wants(updates);
  }

  /**
   * Records the policy weights after `updates` updates (`SwarmPolicy.toJSON()`), stored in their
   * shortest float32 form. Any position is accepted; the latest is always kept until a later one
   * comes, so call this with the final weights before the last `snapshot`.
   */
  addCheckpoint(updates: number, weights: PolicyJSON): void {
    const compact = compactWeights(weights);
    if (!this.sized) {
      this.sized = true;
      const bytes = JSON.stringify(compact).length;
      this.checkpoints.maxKept = Math.max(1, Math.min(this.checkpoints.maxKept, Math.floor(this.budget / bytes) - 1));
    }
    this.checkpoints.add(updates, { updates, weights: compact });
  }

  /**
   * Records what talk was worth after `r.updates` updates. A measurement at the same count as the
   * newest one replaces it (new weights loaded before any update); an earlier count, or one before
   * the first recorded update, is ignored (it belongs to weights this recording does not cover).
   */
  addTalk(r: TalkRecord): void {
    const first = this.metrics[0]?.update;
    if (first !== undefined && (r.updates < first || r.updates > this.nextUpdate)) return;
    const last = this.talk[this.talk.length - 1];
    if (last && r.updates < last.updates) return;
    if (last && r.updates === last.updates) this.talk.pop();
    this.talk.push({ ...r });
  }

  /** A complete run file of everything recorded so far (it shares the recorded items: treat it as read-only). */
  snapshot(): RunFile {
    const run: RunFile = {
      format: RUN_FORMAT,
      version: RUN_VERSION,
      name: this.name,
      created: this.created,
      config: { ...this.config },
      seed: this.config.seed,
      schedule: scheduleOf(this.config),
      configChanges: this.changes.slice(),
      totalUpdates: this.total,
      metrics: this.metrics.slice(),
      episodes: { rule: this.episodes.rule, items: this.episodes.items() },
      checkpoints: { rule: this.checkpoints.rule, items: this.checkpoints.items() },
    };
    // Absent rather than empty, so a run without measurements is written as before.
    const first = this.metrics[0]?.update ?? 0;
    const talk = this.talk.filter((r) => r.updates >= first && r.updates <= this.nextUpdate);
    if (talk.length) run.talk = talk;
    return run;
  }
}

/**
 * The recorded showcase episode nearest to `update` (the earlier one on a tie), for a replay
 * scrubber; undefined when the run holds none.
 */
export function episodeNear(run: Pick<RunFile, 'episodes'>, update: number): ShowcaseEpisode | undefined {
  const items = run.episodes.items;
  if (!items.length) return undefined;
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].update < update) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && update - items[lo - 1].update <= items[lo].update - update) return items[lo - 1];
  return items[lo];
}

/**
 * How many minutes (ticks) an episode lasted: it stops at the minute its last module completed
 * when every module completed, otherwise at its deadline.
 */
export function episodeTicks(e: Pick<ShowcaseEpisode, 'tmax' | 'events' | 'modules'>): number {
  const done = new Set<number>();
  let last = -1;
  for (const ev of e.events) {
    if (ev.kind !== 'complete' || ev.module < 0 || ev.module >= e.modules.length) continue;
    done.add(ev.module);
    last = Math.max(last, ev.t);
  }
  return e.modules.length > 0 && done.size >= e.modules.length ? Math.min(e.tmax, last + 1) : e.tmax;
}

/** The showcase task's modules as recorded: tests, prerequisite, this attempt's real work, luck. */
export function showcaseModules(task: Task, work: readonly number[]): ModuleInfo[] {
  return Array.from({ length: task.modules }, (_, k) => ({ tests: task.tests[k], dep: task.dep[k], work: work[k], luck: task.luck[k] > 0 }));
}

/** The newest checkpoint of a run, or undefined (e.g. to continue training from it). */
export function lastCheckpoint(run: Pick<RunFile, 'checkpoints'>): Checkpoint | undefined {
  const items = run.checkpoints.items;
  return items[items.length - 1];
}
