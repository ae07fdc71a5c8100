import type { Checkpoint, RunFile, ShowcaseEpisode } from '../core/runFormat';
import type { PolicyJSON } from '../rl/policy';
import type { UpdateMetrics } from '../rl/metrics';

/**
 * One piece of a decoded run on its way from a worker to the page. The page copies each message
 * it receives in a task of its own, so a run sent whole (tens of MB of objects and numbers) would
 * hold the page for as long as it takes to copy it; sent in pieces, no one task is long. Weights
 * travel as Float64Arrays, whose buffers are moved, not copied (every number kept exactly, NaN included).
 */
export type RunPart =
  | { kind: 'head'; run: RunFile }
  | { kind: 'metrics'; items: UpdateMetrics[] }
  | { kind: 'episodes'; items: ShowcaseEpisode[] }
  | { kind: 'checkpoint'; updates: number; policy: Omit<PolicyJSON, 'weights'>; tensors: { name: string; shape: number[]; data: Float64Array }[] };

/** Updates' metrics per piece. */
const METRICS_PER_PART = 4096;
/** Events per piece of showcase episodes (a piece holds at least one episode). */
const EVENTS_PER_PART = 32_768;

/** `run` in pieces, each with the buffers to move along with it; `RunAssembler` puts them together again. */
export function runParts(run: RunFile): { part: RunPart; transfer: ArrayBuffer[] }[] {
  const out: { part: RunPart; transfer: ArrayBuffer[] }[] = [];
  const head: RunFile = { ...run, metrics: [], episodes: { ...run.episodes, items: [] }, checkpoints: { ...run.checkpoints, items: [] } };
  out.push({ part: { kind: 'head', run: head }, transfer: [] });
  for (let i = 0; i < run.metrics.length; i += METRICS_PER_PART)
    out.push({ part: { kind: 'metrics', items: run.metrics.slice(i, i + METRICS_PER_PART) }, transfer: [] });
  let batch: ShowcaseEpisode[] = [];
  let events = 0;
  for (const e of run.episodes.items) {
    if (batch.length && events + e.events.length > EVENTS_PER_PART) {
      out.push({ part: { kind: 'episodes', items: batch }, transfer: [] });
      batch = [];
      events = 0;
    }
    batch.push(e);
    events += e.events.length;
  }
  if (batch.length) out.push({ part: { kind: 'episodes', items: batch }, transfer: [] });
  for (const c of run.checkpoints.items) {
    const { weights, ...policy } = c.weights;
    const tensors = Object.entries(weights).map(([name, w]) => ({ name, shape: w.shape, data: Float64Array.from(w.data) }));
    out.push({ part: { kind: 'checkpoint', updates: c.updates, policy, tensors }, transfer: tensors.map((t) => t.data.buffer) });
  }
  return out;
}

function toNumbers(data: Float64Array): number[] {
  const out = new Array<number>(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i];
  return out;
}

/** Puts a run sent with `runParts` together again, piece by piece, in the order they were made. */
export class RunAssembler {
  private head: RunFile | null = null;
  private readonly metrics: UpdateMetrics[] = [];
  private readonly episodes: ShowcaseEpisode[] = [];
  private readonly checkpoints: Checkpoint[] = [];

  add(part: RunPart): void {
    if (part.kind === 'head') this.head = part.run;
    else if (part.kind === 'metrics') for (const m of part.items) this.metrics.push(m);
    else if (part.kind === 'episodes') for (const e of part.items) this.episodes.push(e);
    else {
      const weights: PolicyJSON['weights'] = {};
      for (const t of part.tensors) weights[t.name] = { shape: t.shape, data: toNumbers(t.data) };
      this.checkpoints.push({ updates: part.updates, weights: { ...part.policy, weights } });
    }
  }

  /** The whole run; throws if its first piece never came. */
  run(): RunFile {
    if (!this.head) throw new Error('the run was not received whole');
    return {
      ...this.head,
      metrics: this.metrics,
      episodes: { ...this.head.episodes, items: this.episodes },
      checkpoints: { ...this.head.checkpoints, items: this.checkpoints },
    };
  }
}
