import * as tf from '@tensorflow/tfjs';
import type { SharedObservations } from '../sim/observeShared';
import { type DecisionRows, KINDS, packChoices, packObservations, type PackStore } from './decisions';
import {
  choiceTensors,
  decisionTensors,
  type ChoiceTensors,
  type DecisionTensors,
  type ForwardPass,
  type FusedWeights,
  type SwarmPolicy,
  uploadCopies,
} from './policy';

/** One minute of acting: the rows it scored, their upload, and the forward pass over them (the masks' biases are the record's). */
interface Minute {
  /** The scored rows' indices in the batch's minute-major rows. */
  at: Int32Array;
  /** Rows a minute (all of the batch's agents). */
  perMinute: number;
  /** Rows scored. */
  rows: number;
  M: number;
  A: number;
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
  /**
   * The recorded minutes' mask biases, joined along the rows as they come (the actor packs each
   * minute into storage it reuses, so the record copies them); kept from one batch to the next.
   */
  private biases: Record<'kindBias' | 'argBias' | 'dmBias', Float32Array> = {
    kindBias: new Float32Array(0),
    argBias: new Float32Array(0),
    dmBias: new Float32Array(0),
  };
  private biasRows = 0;

  constructor(readonly policy: SwarmPolicy) {}

  /** Decision rows recorded so far. */
  get rowCount(): number {
    return this.biasRows;
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
    if (first && (first.M !== rows.M || first.A !== rows.A || first.perMinute !== R || weights !== this.weights)) {
      tf.dispose([inputs.trunk, inputs.modules, inputs.agents, ...Object.values(forward)]);
      throw new Error('an acting record holds minutes of one shape and one set of weights');
    }
    this.weights = weights;
    const at = Int32Array.from(scored, (r) => this.seen * R + r);
    this.seen++;
    this.keepBiases(rows);
    this.minutes.push({ at, perMinute: R, rows: rows.rows, M: rows.M, A: rows.A, ...inputs, forward });
  }

  /** Appends a minute's mask biases to the record's, growing its arrays when they are full. */
  private keepBiases(rows: DecisionRows): void {
    const l = this.biasRows;
    const n = l + rows.rows;
    const { M, A } = rows;
    const grow = (a: Float32Array, width: number): Float32Array => {
      if (a.length >= n * width) return a;
      const b = new Float32Array(Math.max(n * width, 2 * a.length));
      b.set(a.subarray(0, l * width));
      return b;
    };
    const b = this.biases;
    b.kindBias = grow(b.kindBias, KINDS);
    b.argBias = grow(b.argBias, 2 * M);
    b.dmBias = grow(b.dmBias, A);
    b.kindBias.set(rows.kindBias.subarray(0, rows.rows * KINDS), l * KINDS);
    b.argBias.set(rows.argBias.subarray(0, rows.rows * 2 * M), l * 2 * M);
    b.dmBias.set(rows.dmBias.subarray(0, rows.rows * A), l * A);
    this.biasRows = n;
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
      const { M, A } = minutes[0];
      const L = pick.length;
      const b = this.biases;
      // The record's arrays are written again by the next batch: copied first where the backend keeps them.
      const own = uploadCopies() ? (a: Float32Array, n: number) => a.subarray(0, n) : (a: Float32Array, n: number) => a.slice(0, n);
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
          tf.tensor2d(own(b.kindBias, L * KINDS), [L, KINDS]),
          tf.tensor3d(own(b.argBias, L * 2 * M), [L, 2, M]),
          tf.tensor2d(own(b.dmBias, L * A), [L, A]),
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
    this.biasRows = 0;
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
 * packed and uploaded here, packed into `store` if one is given (`uploadCopies`). The caller disposes
 * what it gets.
 */
export function uploadDecisions(
  batch: { obs: Float32Array | SharedObservations; mask: Float32Array; actions: Int32Array },
  pick: Int32Array,
  M: number,
  A: number,
  record: ActingRecord | null = null,
  store?: PackStore,
): LearnData {
  const L = pick.length;
  const choices = choiceTensors(packChoices(batch.actions, L, M, A, pick, store), L, M, A);
  let recorded: RecordedRows | null;
  let rows: DecisionTensors;
  try {
    recorded = record ? record.take(pick) : null;
    rows = recorded ? recorded.rows : decisionTensors(packObservations(batch.obs, batch.mask, L, M, A, pick, store));
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
