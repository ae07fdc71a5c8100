/**
 * Run files from the command line: record a training run the way the app does (same recorder,
 * same format) and read a run file's last checkpoint to continue from it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { RunRecorder, lastCheckpoint, showcaseModules, structureInfo, type RecorderOptions } from '../../src/core/recorder';
import { decodeRunFile, encodeRunFile } from '../../src/core/runFile';
import type { TalkRecord } from '../../src/core/runFormat';
import { referenceReturns, talkValue, type References } from '../../src/rl/compare';
import { costsOf, type Config } from '../../src/rl/config';
import type { PolicyJSON } from '../../src/rl/policy';
import type { Trainer, UpdateResult } from '../../src/rl/trainer';

/** Records one training run into a run file, with the reference returns the app would show. */
/** What a recording reads of a trainer (one alone, or shard 0 of a threaded run). */
export type TrainerView = Pick<Trainer, 'update' | 'totalUpdates' | 'policy'>;

export class TrainingRecording {
  readonly recorder: RunRecorder;
  /** Seconds spent recording (reference returns, weight read-backs), to leave out of timings. */
  seconds = 0;
  private readonly references = new Map<number, References>();
  private readonly config: Config;

  constructor(config: Config, options: RecorderOptions = {}) {
    this.config = config;
    this.recorder = new RunRecorder(config, options);
  }

  /** Records the update `trainer` just ran (call right after `trainer.step()`). */
  async record(trainer: TrainerView, result: UpdateResult): Promise<void> {
    const t0 = performance.now();
    const { metrics } = result;
    let references = this.references.get(metrics.tmax);
    if (!references) {
      // The reference organisations play under the run's costs, as its evaluation does.
      references = await referenceReturns(this.config.family, this.config.agents, metrics.tmax, 16, costsOf(this.config));
      this.references.set(metrics.tmax, references);
    }
    this.recorder.push({
      metrics,
      events: result.events,
      modules: showcaseModules(result.showcaseTask, result.showcaseWork),
      total: trainer.totalUpdates,
      references,
      structure: structureInfo(result.structure),
    });
    if (this.recorder.wantsCheckpoint(trainer.update)) this.recorder.addCheckpoint(trainer.update, trainer.policy.toJSON());
    this.seconds += (performance.now() - t0) / 1000;
  }

  /**
   * Measures what the trained swarm's talk is worth now (`talkValue`: `tasks` fresh tasks at the
   * final deadline, talking and muted) and records it, so a replay of the file shows it.
   */
  async measureTalk(trainer: Trainer, tasks = 16, seed = 1): Promise<TalkRecord> {
    const c = this.config;
    const v = await talkValue(trainer.policy, { family: c.family, agents: c.agents, tmax: c.tmaxEnd, tasks, seed, ...trainer.evaluationSetup() });
    const record: TalkRecord = {
      updates: trainer.update,
      tmax: c.tmaxEnd,
      tasks,
      ret: v.ret,
      muted: v.muted,
      neededShare: v.neededShare,
      messages: v.messages,
      useful: v.useful,
      duplicate: v.duplicate,
      scripted: v.scripted,
    };
    this.recorder.addTalk(record);
    return record;
  }

  /** Adds the trainer's final weights and writes the gzip run file to `path`. */
  write(path: string, trainer: TrainerView): void {
    this.recorder.addCheckpoint(trainer.update, trainer.policy.toJSON());
    writeFileSync(path, encodeRunFile(this.recorder.snapshot()));
  }
}

/** The weights of a run file's last checkpoint, and the run's settings; throws an Error that says what is wrong. */
export function runFileCheckpoint(path: string): { weights: PolicyJSON; updates: number; name: string; config: Config } {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new Error(`cannot read ${path}: ${(e as Error).message}`);
  }
  const r = decodeRunFile(bytes);
  if (!r.ok) throw new Error(`${path}: ${r.error}`);
  const last = lastCheckpoint(r.run);
  if (!last) throw new Error(`${path} holds no policy checkpoint`);
  return { weights: last.weights, updates: last.updates, name: r.run.name, config: r.run.config };
}
