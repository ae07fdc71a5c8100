import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluatePolicy } from './compare';
import { SwarmPolicy } from './policy';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('evaluatePolicy', () => {
  it('plays the piles as idle minutes when asked, on the same tasks', async () => {
    const p = SwarmPolicy.create({ hidden: 8, scorer: 4 }, 3);
    const opts = { family: 'coupled', agents: 8, tmax: 24, tasks: 4, seed: 4 } as const;
    const asIs = await evaluatePolicy(p, 'trained swarm', opts);
    const idled = await evaluatePolicy(p, 'trained swarm, piles idled', { ...opts, pilesIdled: true });
    // The untrained swarm piles on; idled, the same policy leaves no pile and idles more.
    expect(asIs.duplicate).toBeGreaterThan(0);
    expect(idled.org).toBe('trained swarm, piles idled');
    expect(idled.duplicate).toBe(0);
    expect(idled.idle).toBeGreaterThan(asIs.idle);
    expect(await evaluatePolicy(p, 'trained swarm', opts)).toEqual(asIs);
    p.dispose();
  });
});
