/**
 * Seeded pseudo-random numbers (mulberry32). Two forms: a small object for setup code and free
 * functions over a Uint32Array of states, so the vectorised hot loops keep one state per rollout
 * without allocating.
 */

/** Advances state `s[i]` and returns a float in [0, 1). */
export function nextFloat(s: Uint32Array, i: number): number {
  let t = (s[i] = (s[i] + 0x6d2b79f5) >>> 0);
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** Mixes a seed and a stream index into a well-spread 32-bit state (splitmix-style). */
export function mixSeed(seed: number, stream = 0): number {
  let h = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(stream | 0, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A seeded generator for non-hot code (task generation, scripted choices). */
export class Rng {
  private readonly s = new Uint32Array(1);
  constructor(seed: number, stream = 0) {
    this.s[0] = mixSeed(seed, stream);
  }
  /** Float in [0, 1). */
  next(): number {
    return nextFloat(this.s, 0);
  }
  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  /** Uniform float in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }
  /** One element of a non-empty array. */
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
}
