import * as tf from '@tensorflow/tfjs';
import { type DecisionRows, KINDS } from './decisions';
import type { DecisionTensors, ForwardPass, FusedWeights, SwarmPolicy } from './policy';

/** One minute of acting: its packed rows, their upload, and the forward pass over them. */
interface Minute {
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
 * learn step (joined along the rows and narrowed to the live ones) instead of packing, uploading
 * and computing them again. Only the later epochs, after the weights have moved, compute their own.
 *
 * A record belongs to one batch and one set of weights: `take` refuses one whose weights have
 * changed since (the policy's fused weights are rebuilt whenever a variable is assigned). The record
 * owns its tensors until `take` or `dispose`.
 */
export class ActingRecord {
  private minutes: Minute[] = [];
  private weights: FusedWeights | null = null;

  constructor(readonly policy: SwarmPolicy) {}

  /** Decision rows recorded so far (minutes x rows per minute). */
  get rowCount(): number {
    return this.minutes.reduce((n, m) => n + m.rows.rows, 0);
  }

  /**
   * Keeps one minute's rows, their tensors and the forward pass over them (the record frees them
   * from now on). Every minute of a record scores the same modules and agents, with the same weights.
   */
  add(rows: DecisionRows, inputs: { trunk: tf.Tensor2D; modules: tf.Tensor2D; agents: tf.Tensor2D }, forward: ForwardPass): void {
    const first = this.minutes[0]?.rows;
    const weights = this.policy.fusedWeights();
    if (first && (first.rows !== rows.rows || first.M !== rows.M || first.A !== rows.A || weights !== this.weights)) {
      tf.dispose([inputs.trunk, inputs.modules, inputs.agents, ...Object.values(forward)]);
      throw new Error('an acting record holds minutes of one shape and one set of weights');
    }
    this.weights = weights;
    this.minutes.push({ rows, ...inputs, forward });
  }

  /**
   * The recorded rows `pick` (indices into the minute-major rows, increasing) as the learn step's
   * decision rows and their forward pass; null, keeping nothing, if the record is empty or the
   * weights have changed since it was made. Either way the record is empty afterwards. The caller
   * disposes what it gets.
   */
  take(pick: Int32Array): RecordedRows | null {
    const minutes = this.minutes;
    const valid = minutes.length > 0 && this.policy.fusedWeights() === this.weights;
    try {
      if (!valid) return null;
      const { rows: R, M, A } = minutes[0].rows;
      const total = minutes.length * R;
      const L = pick.length;
      if (L === 0 || pick[L - 1] >= total) throw new RangeError(`picked row ${pick[L - 1]} of a record of ${total} rows`);
      const all = L === total;
      const biases = gatherBiases(minutes, pick);
      // Gather indices of the picked rows, and of their items (modules, recipients) in the [rows * items] tensors.
      const index = (items: number) => {
        const out = new Int32Array(L * items);
        for (let l = 0; l < L; l++) for (let i = 0; i < items; i++) out[l * items + i] = pick[l] * items + i;
        return out;
      };
      const [h1, h, zm, za, kinds, moduleScores, dmScores, trunk, modules, agents, kindBias, argBias, dmBias] = tf.tidy(() => {
        const byRow = all ? null : tf.tensor1d(index(1), 'int32');
        const byModule = all ? null : tf.tensor1d(index(M), 'int32');
        const byAgent = all ? null : tf.tensor1d(index(A), 'int32');
        const join = (get: (m: Minute) => tf.Tensor2D, at: tf.Tensor1D | null) => {
          const joined = tf.concat(minutes.map(get), 0) as tf.Tensor2D;
          return at ? (tf.gather(joined, at) as tf.Tensor2D) : joined;
        };
        return [
          join((m) => m.forward.h1, byRow),
          join((m) => m.forward.h, byRow),
          join((m) => m.forward.zm, byModule),
          join((m) => m.forward.za, byAgent),
          join((m) => m.forward.kinds, byRow),
          join((m) => m.forward.moduleScores, byModule),
          join((m) => m.forward.dmScores, byAgent),
          join((m) => m.trunk, byRow),
          join((m) => m.modules, byModule),
          join((m) => m.agents, byAgent),
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

  /** Frees what the record holds. */
  dispose(): void {
    for (const m of this.minutes) tf.dispose([m.trunk, m.modules, m.agents, ...Object.values(m.forward)]);
    this.minutes = [];
    this.weights = null;
  }
}

/** The mask biases of the picked rows, copied out of the minutes' packed rows. */
function gatherBiases(minutes: Minute[], pick: Int32Array): Pick<DecisionRows, 'kindBias' | 'argBias' | 'dmBias'> {
  const { rows: R, M, A } = minutes[0].rows;
  const L = pick.length;
  const kindBias = new Float32Array(L * KINDS);
  const argBias = new Float32Array(L * 2 * M);
  const dmBias = new Float32Array(L * A);
  for (let l = 0; l < L; l++) {
    const from = minutes[Math.floor(pick[l] / R)].rows;
    const r = pick[l] % R;
    kindBias.set(from.kindBias.subarray(r * KINDS, (r + 1) * KINDS), l * KINDS);
    argBias.set(from.argBias.subarray(r * 2 * M, (r + 1) * 2 * M), l * 2 * M);
    dmBias.set(from.dmBias.subarray(r * A, (r + 1) * A), l * A);
  }
  return { kindBias, argBias, dmBias };
}
