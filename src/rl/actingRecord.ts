import * as tf from '@tensorflow/tfjs';
import type { SharedObservations } from '../sim/observeShared';
import { type DecisionRows, KINDS, packChoices, packObservations } from './decisions';
import { choiceTensors, decisionTensors, type ChoiceTensors, type DecisionTensors, type ForwardPass, type FusedWeights, type SwarmPolicy } from './policy';

/** One minute of acting: the rows it scored, packed, their upload, and the forward pass over them. */
interface Minute {
  /** The scored rows' indices in the batch's minute-major rows. */
  at: Int32Array;
  /** Rows a minute (all of the batch's agents). */
  perMinute: number;
  rows: DecisionRows;
  trunk: tf.Tensor2D;
  modules: tf.Tensor2D;
  agents: tf.Tensor2D;
  forward: ForwardPass;
}

/** The learn step's rows and the forward pass over them, assembled from a record. */
export interface RecordedRows {
  rows: DecisionTensors;
  forward: ForwardPass;
}

/**
 * The forward passes an actor made while it collected a batch, kept on the backend, minute by
 * minute. The first epoch of the batch's learn step runs with the very weights the actor acted
 * with, so its forward pass is the actor's, row for row: `take` hands the recorded rows to the
 * learn step, joined along the rows, instead of packing, uploading and computing them again. Only
 * the later epochs, after the weights have moved, compute their own.
 *
 * The actor scores only the decisions (rows with a choice), which are the rows a learn step learns
 * from unless a structure learns from some agents only; `take` serves a learn step whose rows are
 * exactly the recorded ones (a narrowing gather is slower on wasm than the forward pass it would
 * save) and refuses one whose weights have changed since (the policy's fused weights are rebuilt
 * whenever a variable is assigned). The record owns its tensors until `take` or `dispose`.
 */
export class ActingRecord {
  private minutes: Minute[] = [];
  /** Minutes seen, scored or not. */
  private seen = 0;
  private weights: FusedWeights | null = null;

  constructor(readonly policy: SwarmPolicy) {}

  /** Decision rows recorded so far. */
  get rowCount(): number {
    return this.minutes.reduce((n, m) => n + m.rows.rows, 0);
  }

  /**
   * Keeps the next minute's scored rows (`scored`, indices into its R rows, increasing), packed, their
   * tensors and the forward pass over them; the record frees them from now on. Every minute of a
   * record scores the same modules and agents of a batch of R rows a minute, with the same weights.
   */
  add(
    R: number,
    scored: Int32Array,
    rows: DecisionRows,
    inputs: { trunk: tf.Tensor2D; modules: tf.Tensor2D; agents: tf.Tensor2D },
    forward: ForwardPass,
  ): void {
    const first = this.minutes[0];
    const weights = this.policy.fusedWeights();
    if (first && (first.rows.M !== rows.M || first.rows.A !== rows.A || first.perMinute !== R || weights !== this.weights)) {
      tf.dispose([inputs.trunk, inputs.modules, inputs.agents, ...Object.values(forward)]);
      throw new Error('an acting record holds minutes of one shape and one set of weights');
    }
    this.weights = weights;
    const at = Int32Array.from(scored, (r) => this.seen * R + r);
    this.seen++;
    this.minutes.push({ at, perMinute: R, rows, ...inputs, forward });
  }

  /** Counts a minute in which no row was scored (every move was forced). */
  skip(): void {
    this.seen++;
  }

  /**
   * The recorded rows as the learn step's decision rows and their forward pass, if they are exactly
   * the rows `pick` (indices into the minute-major rows, increasing) and the weights are still the
   * ones they were made with; null otherwise (the caller packs and computes them). Either way the
   * record is empty afterwards. The caller disposes what it gets.
   */
  take(pick: Int32Array): RecordedRows | null {
    const minutes = this.minutes;
    try {
      if (minutes.length === 0 || this.policy.fusedWeights() !== this.weights || !samePicks(minutes, pick)) return null;
      const { M, A } = minutes[0].rows;
      const L = pick.length;
      const biases = joinBiases(minutes, L);
      const [h1, h, zm, za, kinds, moduleScores, dmScores, trunk, modules, agents, kindBias, argBias, dmBias] = tf.tidy(() => {
        const join = (get: (m: Minute) => tf.Tensor2D) => tf.concat(minutes.map(get), 0) as tf.Tensor2D;
        return [
          join((m) => m.forward.h1),
          join((m) => m.forward.h),
          join((m) => m.forward.zm),
          join((m) => m.forward.za),
          join((m) => m.forward.kinds),
          join((m) => m.forward.moduleScores),
          join((m) => m.forward.dmScores),
          join((m) => m.trunk),
          join((m) => m.modules),
          join((m) => m.agents),
          tf.tensor2d(biases.kindBias, [L, KINDS]),
          tf.tensor3d(biases.argBias, [L, 2, M]),
          tf.tensor2d(biases.dmBias, [L, A]),
        ];
      });
      return {
        rows: { rows: L, M, A, trunk, modules, agents, kindBias, argBias: argBias as tf.Tensor3D, dmBias },
        forward: { h1, h, zm, za, kinds, moduleScores, dmScores },
      };
    } finally {
      this.dispose();
    }
  }

  /** Frees what the record holds and forgets its minutes. */
  dispose(): void {
    for (const m of this.minutes) tf.dispose([m.trunk, m.modules, m.agents, ...Object.values(m.forward)]);
    this.minutes = [];
    this.seen = 0;
    this.weights = null;
  }
}

/** A learn step's decisions on the backend (`uploadDecisions`). */
export interface LearnData {
  rows: DecisionTensors;
  choices: ChoiceTensors;
  /** The actor's forward pass over the rows, until the first epoch has used it. */
  forward: ForwardPass | null;
  /** Frees the recorded forward pass once its epoch is done (the rows stay for the next). */
  dropForward(): void;
  dispose(): void;
}

/**
 * The live decisions `pick` of a batch (indices into its minute-major rows, increasing), packed for
 * the policy's heads over `M` scored modules and `A` agents, on the backend: taken from `record` with
 * the forward pass the actor made (when it recorded exactly these rows with the current weights), or
 * packed and uploaded here. The caller disposes what it gets.
 */
export function uploadDecisions(
  batch: { obs: Float32Array | SharedObservations; mask: Float32Array; actions: Int32Array },
  pick: Int32Array,
  M: number,
  A: number,
  record: ActingRecord | null = null,
): LearnData {
  const L = pick.length;
  const choices = choiceTensors(packChoices(batch.actions, L, M, A, pick), L, M, A);
  let recorded: RecordedRows | null;
  let rows: DecisionTensors;
  try {
    recorded = record ? record.take(pick) : null;
    rows = recorded ? recorded.rows : decisionTensors(packObservations(batch.obs, batch.mask, L, M, A, pick));
  } catch (e) {
    tf.dispose([choices.kind, choices.arg, choices.dm]);
    throw e;
  }
  const data: LearnData = {
    rows,
    choices,
    forward: recorded ? recorded.forward : null,
    dropForward() {
      if (data.forward) tf.dispose(Object.values(data.forward));
      data.forward = null;
    },
    dispose() {
      data.dropForward();
      tf.dispose([rows.trunk, rows.modules, rows.agents, rows.kindBias, rows.argBias, rows.dmBias, choices.kind, choices.arg, choices.dm]);
    },
  };
  return data;
}

/** Whether the minutes' recorded rows are exactly `pick`, in order. */
function samePicks(minutes: Minute[], pick: Int32Array): boolean {
  let l = 0;
  for (const m of minutes) {
    for (const r of m.at) if (pick[l++] !== r) return false;
  }
  return l === pick.length;
}

/** The mask biases of the recorded rows (L in all), joined out of the minutes' packed rows. */
function joinBiases(minutes: Minute[], L: number): Pick<DecisionRows, 'kindBias' | 'argBias' | 'dmBias'> {
  const { M, A } = minutes[0].rows;
  const kindBias = new Float32Array(L * KINDS);
  const argBias = new Float32Array(L * 2 * M);
  const dmBias = new Float32Array(L * A);
  let l = 0;
  for (const { rows } of minutes) {
    kindBias.set(rows.kindBias, l * KINDS);
    argBias.set(rows.argBias, l * 2 * M);
    dmBias.set(rows.dmBias, l * A);
    l += rows.rows;
  }
  return { kindBias, argBias, dmBias };
}
