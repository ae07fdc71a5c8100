import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SprintEnv } from '../sim/env';
import { generateTask } from '../sim/task';
import { handTask } from '../sim/testing';
import { ActingRecord, uploadDecisions } from './actingRecord';
import { PolicyActor, scoredModules } from './actor';
import { packChoices, packObservations, PackStore } from './decisions';
import { choiceTensors, decisionTensors, SwarmPolicy, uploadCopies } from './policy';
import { lossAndGradients } from './policyGradient';
import { BatchBuffers, collect, type Batch } from './rollout';
import { onWasmBackend } from './testing';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/**
 * Collects a batch with a recording actor: a small task that is done within a few minutes beside a
 * long one, so the finished rollout's moves are forced (not decisions, not live, not scored).
 */
async function recordedBatch(policy: SwarmPolicy): Promise<{ batch: Batch; record: ActingRecord; env: SprintEnv; pick: Int32Array }> {
  const env = new SprintEnv(2, 3);
  const actor = new PolicyActor(policy, 4);
  const record = new ActingRecord(policy);
  actor.record = record;
  const batch = await collect(env, [handTask([1, 1], [1, 1], [-1, 0], [], true), generateTask('long-coupled', 5)], 2, 12, actor, new BatchBuffers());
  actor.record = null;
  const live: number[] = [];
  for (let r = 0; r < batch.T * batch.R; r++) if (batch.live[r]) live.push(r);
  return { batch, record, env, pick: Int32Array.from(live) };
}

const values = (t: tf.Tensor) => Array.from(t.dataSync());

describe('the acting record', () => {
  it("hands the learn step the actor's forward passes over exactly the live rows it would pack", async () => {
    const policy = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 7);
    policy.fusedWeights(); // made at the first forward pass and kept by the policy
    const before = tf.memory().numTensors;
    const { batch, record, env, pick } = await recordedBatch(policy);
    expect(pick.length).toBeGreaterThan(0);
    expect(pick.length).toBeLessThan(batch.T * batch.R); // forced moves were left out
    expect(record.rowCount).toBe(pick.length);
    const got = record.take(pick);
    expect(got).not.toBeNull();
    expect(record.rowCount).toBe(0);
    const M = scoredModules(env);
    const A = env.N;
    const packed = decisionTensors(packObservations(batch.obs, batch.mask, pick.length, M, A, pick));
    const fresh = tf.tidy(() => policy.forward(packed.trunk, packed.modules, packed.agents, M, A));
    const rows = got!.rows;
    expect([rows.rows, rows.M, rows.A]).toEqual([pick.length, M, A]);
    for (const k of ['trunk', 'modules', 'agents', 'kindBias', 'argBias', 'dmBias'] as const) expect(values(rows[k]), k).toEqual(values(packed[k]));
    for (const k of Object.keys(fresh) as (keyof typeof fresh)[]) {
      expect(got!.forward[k].shape, k).toEqual(fresh[k].shape);
      expect(values(got!.forward[k]), k).toEqual(values(fresh[k]));
    }
    tf.dispose([...Object.values(fresh), ...Object.values(got!.forward)]);
    tf.dispose([packed.trunk, packed.modules, packed.agents, packed.kindBias, packed.argBias, packed.dmBias]);
    tf.dispose([rows.trunk, rows.modules, rows.agents, rows.kindBias, rows.argBias, rows.dmBias]);
    expect(tf.memory().numTensors).toBe(before);
    policy.dispose();
  });

  it('gives the first epoch the gradients of a fresh forward pass', async () => {
    const policy = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 9);
    const { batch, record, env, pick } = await recordedBatch(policy);
    const M = scoredModules(env);
    const A = env.N;
    const got = record.take(pick)!;
    const packed = decisionTensors(packObservations(batch.obs, batch.mask, pick.length, M, A, pick));
    const choices = choiceTensors(packChoices(batch.actions, pick.length, M, A, pick), pick.length, M, A);
    const loss = (chosen: tf.Tensor1D, entropy: tf.Tensor1D) => tf.sub(tf.neg(tf.mean(chosen)), tf.mul(0.01, tf.mean(entropy))) as tf.Scalar;
    const a = lossAndGradients(policy, got.rows, choices, loss, got.forward);
    const b = lossAndGradients(policy, packed, choices, loss);
    expect(values(a.loss)).toEqual(values(b.loss));
    expect(values(a.entropy)).toEqual(values(b.entropy));
    expect(Object.keys(a.grads).sort()).toEqual(Object.keys(b.grads).sort());
    for (const k of Object.keys(b.grads)) expect(values(a.grads[k]), k).toEqual(values(b.grads[k]));
    // The recorded forward pass is the caller's: the gradient left it alone.
    expect(got.forward.zm.isDisposed).toBe(false);
    tf.dispose([
      a.loss,
      a.entropy,
      ...Object.values(a.grads),
      b.loss,
      b.entropy,
      ...Object.values(b.grads),
      ...Object.values(choices),
      ...Object.values(got.forward),
    ]);
    tf.dispose([packed.trunk, packed.modules, packed.agents, packed.kindBias, packed.argBias, packed.dmBias]);
    tf.dispose([got.rows.trunk, got.rows.modules, got.rows.agents, got.rows.kindBias, got.rows.argBias, got.rows.dmBias]);
    policy.dispose();
  });

  it('refuses rows it did not record, as when a structure learns from some agents only, and frees them', async () => {
    const policy = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 7);
    policy.fusedWeights();
    const before = tf.memory().numTensors;
    const { record, pick } = await recordedBatch(policy);
    expect(record.take(pick.filter((_, i) => i % 3 !== 0))).toBeNull();
    expect(record.rowCount).toBe(0);
    expect(tf.memory().numTensors).toBe(before);
    const again = await recordedBatch(policy);
    expect(again.record.take(Int32Array.from([...again.pick, again.batch.T * again.batch.R]))).toBeNull(); // one row more
    expect(tf.memory().numTensors).toBe(before);
    policy.dispose();
  });

  it('refuses once the weights have changed, and frees what it held', async () => {
    const policy = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 7);
    const other = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 8);
    policy.fusedWeights();
    const before = tf.memory().numTensors;
    const { record, pick } = await recordedBatch(policy);
    expect(tf.memory().numTensors).toBeGreaterThan(before);
    policy.copyFrom(other); // what an Adam step does: the variables are assigned
    expect(record.take(pick)).toBeNull();
    expect(record.rowCount).toBe(0);
    policy.fusedWeights(); // rebuilt for the new weights: as many as before
    expect(tf.memory().numTensors).toBe(before);
    policy.dispose();
    other.dispose();
  });

  it('holds one shape of rows: a minute of another shape is refused and freed', async () => {
    const policy = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 7);
    policy.fusedWeights();
    const before = tf.memory().numTensors;
    const { record } = await recordedBatch(policy);
    const held = tf.memory().numTensors;
    const actor = new PolicyActor(policy, 1);
    actor.record = record; // a batch of one rollout into a record of two
    await expect(collect(new SprintEnv(1, 3), [generateTask('long-coupled', 5)], 2, 12, actor, new BatchBuffers())).rejects.toThrow(/one shape/);
    expect(tf.memory().numTensors).toBe(held);
    record.dispose();
    expect(tf.memory().numTensors).toBe(before);
    policy.dispose();
  });

  it("uploads a learn step's decisions from the record when it holds exactly them, else packs them, with the same rows and choices", async () => {
    const policy = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 7);
    policy.fusedWeights();
    const before = tf.memory().numTensors;
    const { batch, record, env, pick } = await recordedBatch(policy);
    const M = scoredModules(env);
    const fromRecord = uploadDecisions(batch, pick, M, env.N, record);
    const packed = uploadDecisions(batch, pick, M, env.N);
    expect(fromRecord.forward).not.toBeNull();
    expect(packed.forward).toBeNull();
    for (const k of ['trunk', 'modules', 'agents', 'kindBias', 'argBias', 'dmBias'] as const)
      expect(values(fromRecord.rows[k]), k).toEqual(values(packed.rows[k]));
    for (const k of ['kind', 'arg', 'dm'] as const) expect(values(fromRecord.choices[k]), k).toEqual(values(packed.choices[k]));
    fromRecord.dropForward();
    expect(fromRecord.forward).toBeNull();
    expect(fromRecord.rows.trunk.isDisposed).toBe(false); // the rows stay for the later epochs
    fromRecord.dispose();
    packed.dispose();
    expect(tf.memory().numTensors).toBe(before);
    policy.dispose();
  });
});

describe('on a backend that copies what it uploads (wasm)', () => {
  onWasmBackend();

  it("packs each minute into the actor's reused storage, and one record and one store serve batch after batch", async () => {
    expect(uploadCopies()).toBe(true);
    const policy = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 7);
    policy.fusedWeights();
    const before = tf.memory().numTensors;
    const actor = new PolicyActor(policy, 4);
    const record = new ActingRecord(policy);
    const store = new PackStore();
    // A longer batch, then a shorter one of another task: the record's and the store's arrays hold the first when the second comes.
    for (const [tmax, seed, family] of [
      [12, 2, 'long-coupled'],
      [7, 3, 'long-planned'],
    ] as const) {
      const env = new SprintEnv(2, 3);
      actor.record = record;
      const batch = await collect(env, [handTask([1, 1], [1, 1], [-1, 0], [], true), generateTask(family, seed)], seed, tmax, actor, new BatchBuffers());
      actor.record = null;
      const pick = Int32Array.from({ length: batch.T * batch.R }, (_, r) => r).filter((r) => batch.live[r] === 1);
      expect(record.rowCount).toBe(pick.length);
      const M = scoredModules(env);
      const fromRecord = uploadDecisions(batch, pick, M, env.N, record, store);
      const packed = uploadDecisions(batch, pick, M, env.N);
      expect(fromRecord.forward).not.toBeNull();
      for (const k of ['trunk', 'modules', 'agents', 'kindBias', 'argBias', 'dmBias'] as const)
        expect(values(fromRecord.rows[k]), `${k}, deadline ${tmax}`).toEqual(values(packed.rows[k]));
      for (const k of ['kind', 'arg', 'dm'] as const) expect(values(fromRecord.choices[k]), `${k}, deadline ${tmax}`).toEqual(values(packed.choices[k]));
      const fresh = tf.tidy(() => policy.forward(packed.rows.trunk, packed.rows.modules, packed.rows.agents, M, env.N));
      for (const k of Object.keys(fresh) as (keyof typeof fresh)[]) expect(values(fromRecord.forward![k]), `${k}, deadline ${tmax}`).toEqual(values(fresh[k]));
      tf.dispose(Object.values(fresh));
      fromRecord.dispose();
      packed.dispose();
      expect(tf.memory().numTensors).toBe(before);
    }
    policy.dispose();
  });
});
