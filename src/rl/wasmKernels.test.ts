import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../sim/rng';
import { addRelu, scorerBackward, setWasmKernels, tallProduct, transposeTall, wasmKernelsActive } from './wasmKernels';
import { KERNELS_PLAIN, KERNELS_SHARED } from './wasmKernelsBinary';

beforeAll(async () => {
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  if (!(await tf.setBackend('wasm'))) throw new Error('the wasm backend did not start');
});

afterEach(() => setWasmKernels(true));

/** Values that catch a kernel that differs from TF.js's ops anywhere: NaN, infinities, zeros of both signs, subnormals. */
const SPECIAL = [NaN, Infinity, -Infinity, 0, -0, 1e-45, -1e-45, 3.4e38, -3.4e38];

/** The WebAssembly API, off the global object (this layer is typed without the DOM's declarations). */
const wasmApi = (
  globalThis as unknown as {
    WebAssembly: {
      Memory: new (d: { initial: number; maximum?: number; shared?: boolean }) => { buffer: ArrayBufferLike };
      Module: new (bytes: Uint8Array) => object;
      Instance: new (module: object, imports: object) => { exports: unknown };
    };
  }
).WebAssembly;

/** Seeded numbers, about every seventh one special. */
function numbers(n: number, seed: number, special = true): Float32Array {
  const rng = new Rng(seed, 9);
  return Float32Array.from({ length: n }, () => {
    const u = rng.next();
    if (special && u < 0.15) return SPECIAL[Math.floor(rng.next() * SPECIAL.length)];
    return (rng.next() - 0.5) * 8;
  });
}

/**
 * Where two tensors differ, every number compared with Object.is (NaN equals NaN, -0 differs from 0):
 * the shapes if they differ, else the first few numbers that do; empty if none.
 */
function differences(got: tf.Tensor, want: tf.Tensor): string[] {
  if (got.shape.join() !== want.shape.join()) return [`shape [${got.shape}] against [${want.shape}]`];
  const g = got.dataSync();
  const w = want.dataSync();
  return [...g.keys()]
    .filter((i) => !Object.is(g[i], w[i]))
    .slice(0, 5)
    .map((i) => `at ${i}: ${g[i]} against ${w[i]}`);
}

/** f with the kernels and without them (the TF.js ops), on the same inputs. */
function both<T extends tf.Tensor | tf.Tensor[]>(f: () => T): [T, T] {
  setWasmKernels(true);
  expect(wasmKernelsActive()).toBe(true);
  const on = f();
  setWasmKernels(false);
  expect(wasmKernelsActive()).toBe(false);
  const off = f();
  setWasmKernels(true);
  return [on, off];
}

describe('the wasm kernels', () => {
  it('start on the wasm backend', () => {
    expect(tf.getBackend()).toBe('wasm');
    expect(wasmKernelsActive()).toBe(true);
  });

  for (const [rows, cols] of [
    [1000, 32],
    [73, 65],
    [64, 3],
    [1, 7],
  ] as const) {
    it(`transposeTall writes tf.transpose's numbers for [${rows} x ${cols}]`, () => {
      const x = tf.tensor2d(numbers(rows * cols, rows + cols), [rows, cols]);
      const [on, off] = both(() => transposeTall(x));
      expect(differences(on, tf.transpose(x)), 'kernel').toEqual([]);
      expect(differences(off, tf.transpose(x)), 'two passes').toEqual([]);
      tf.dispose([x, on, off]);
    });
  }

  for (const [rows, items, width] of [
    [50, 12, 32],
    [33, 8, 32],
    [7, 5, 4],
    [3, 1, 8],
  ] as const) {
    it(`addRelu writes relu(a + ctx)'s numbers for ${rows} rows of ${items} items, width ${width}`, () => {
      const a = tf.tensor2d(numbers(rows * items * width, 1), [rows * items, width]);
      const ctx = tf.tensor2d(numbers(rows * width, 2), [rows, width]);
      const [on, off] = both(() => addRelu(a, ctx, items));
      expect(differences(on, off), 'addRelu').toEqual([]);
      expect(
        differences(on, tf.relu(tf.add(a.reshape([rows, items, width]), ctx.reshape([rows, 1, width]))).reshape([rows * items, width])),
        'relu(a + ctx)',
      ).toEqual([]);
      tf.dispose([a, ctx, on, off]);
    });

    for (const outs of [1, 2]) {
      for (const special of [true, false]) {
        it(`scorerBackward writes the TF.js ops' numbers for ${rows} rows of ${items} items, width ${width}, ${outs} output(s)${special ? ', special values' : ''}`, () => {
          // z as the forward pass leaves it: a relu's output (zeros, NaN kept). With the special values
          // mixed in, most of dW's sums are NaN; without them every sum depends on its order.
          const z = tf.relu(tf.tensor2d(numbers(rows * items * width, 3, special), [rows * items, width])) as tf.Tensor2D;
          const d = tf.tensor2d(numbers(rows * items * outs, 4, special), [rows * items, outs]);
          const w = tf.tensor2d(numbers(width * outs, 5, false), [width, outs]);
          const [on, off] = both(() => {
            const r = scorerBackward(z, d, w, items);
            return [r.dz, r.ctxT, r.dW];
          });
          ['dz', 'ctxT', 'dW'].forEach((name, i) => expect(differences(on[i], off[i]), name).toEqual([]));
          const zT = tf.transpose(z);
          const dW = tf.matMul(zT, d);
          expect(differences(on[2], dW), 'dW is the product zᵀ · d').toEqual([]);
          expect(special || dW.dataSync().every(Number.isFinite), 'finite sums without the special values').toBe(true);
          tf.dispose([z, d, w, zT, dW, ...on, ...off]);
        });
      }
    }
  }

  // Rows: a multiple of four and not (the kernel takes four at a time, then one); columns of b: whole
  // SIMD lanes and not, and too few for the kernel (the backend's product runs); one row of the result.
  for (const [n, p, q] of [
    [1001, 71, 65],
    [256, 32, 13],
    [7, 5, 9],
    [3, 1, 8],
    [5, 3, 4],
  ] as const) {
    for (const special of [true, false]) {
      it(`tallProduct writes tf.matMul's numbers for ${n} rows, [${p}] by [${q}]${special ? ', special values' : ''}`, () => {
        const a = tf.tensor2d(numbers(n * p, 10 + n, special), [n, p]);
        const b = tf.tensor2d(numbers(n * q, 20 + n, special), [n, q]);
        const aT = tf.transpose(a) as tf.Tensor2D;
        const want = tf.matMul(aT, b);
        const [on, off] = both(() => [tallProduct(a, b), tallProduct(aT, b, true)]);
        expect(differences(on[0], off[0]), 'aᵀ · b, kernel against the ops').toEqual([]);
        expect(differences(on[1], off[1]), 'a given transposed, kernel against the ops').toEqual([]);
        expect(differences(on[0], want), 'aᵀ · b').toEqual([]);
        expect(differences(on[1], want), 'a given transposed').toEqual([]);
        expect(special || want.dataSync().every(Number.isFinite), 'finite sums without the special values').toBe(true);
        tf.dispose([a, b, aT, want, ...on, ...off]);
      });
    }
  }

  it('tallProduct sums from +0 as the backend does: a sum of negative zeros is +0', () => {
    const a = tf.zeros([6, 3]) as tf.Tensor2D;
    const b = tf.fill([6, 9], -1) as tf.Tensor2D;
    const [on, off] = both(() => [tallProduct(a, b)]);
    expect(differences(on[0], off[0])).toEqual([]);
    expect(Array.from(on[0].dataSync()).every((x) => Object.is(x, 0))).toBe(true);
    tf.dispose([a, b, ...on, ...off]);
  });

  it('tallProduct refuses operands whose rows differ', () => {
    const a = tf.ones([4, 3]) as tf.Tensor2D;
    const b = tf.ones([5, 2]) as tf.Tensor2D;
    expect(() => tallProduct(a, b)).toThrow(/do not share their rows/);
    expect(() => tallProduct(a, b, true)).toThrow(/do not share their rows/);
    tf.dispose([a, b]);
  });

  it('fall back to the TF.js ops on shapes they do not cover, with the same numbers', () => {
    // A scorer 6 wide is not whole SIMD lanes: the TF.js ops run, kernels on or off.
    const z = tf.relu(tf.tensor2d(numbers(4 * 3 * 6, 6), [12, 6])) as tf.Tensor2D;
    const d = tf.tensor2d(numbers(12 * 2, 7), [12, 2]);
    const w = tf.tensor2d(numbers(6 * 2, 8, false), [6, 2]);
    const [on, off] = both(() => Object.values(scorerBackward(z, d, w, 3)) as tf.Tensor[]);
    on.forEach((t, i) => expect(differences(t, off[i]), `output ${i}`).toEqual([]));
    tf.dispose([z, d, w, ...on, ...off]);
  });

  it('leave no tensors behind beyond their results', () => {
    const z = tf.relu(tf.ones([64, 8])) as tf.Tensor2D;
    const d = tf.ones([64, 2]) as tf.Tensor2D;
    const w = tf.ones([8, 2]) as tf.Tensor2D;
    for (const on of [true, false]) {
      setWasmKernels(on);
      const before = tf.memory().numTensors;
      const r = scorerBackward(z, d, w, 8);
      const t = transposeTall(z);
      const a = addRelu(z, tf.ones([8, 8]) as tf.Tensor2D, 8);
      const p = [tallProduct(z, z), tallProduct(z, d), tallProduct(t, z, true)];
      expect(tf.memory().numTensors).toBe(before + 9); // three, one, one, addRelu's ones, and three
      tf.dispose([r.dz, r.ctxT, r.dW, t, a, ...p]);
    }
    tf.dispose([z, d, w]);
  });

  it('run on a shared memory too (the threaded wasm backend), from the same source', () => {
    const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const run = (module: string, memory: InstanceType<typeof wasmApi.Memory>) => {
      const k = new wasmApi.Instance(new wasmApi.Module(bytes(module)), { env: { memory } }).exports as {
        transpose: (s: number, d: number, r: number, c: number) => void;
      };
      const f = new Float32Array(memory.buffer);
      for (let i = 0; i < 6; i++) f[i] = i + 1;
      k.transpose(0, 64, 2, 3); // [[1, 2, 3], [4, 5, 6]] at 0, its transpose at byte 64
      return Array.from(f.subarray(16, 22));
    };
    expect(run(KERNELS_SHARED, new wasmApi.Memory({ initial: 1, maximum: 16, shared: true }))).toEqual([1, 4, 2, 5, 3, 6]);
    expect(run(KERNELS_PLAIN, new wasmApi.Memory({ initial: 1 }))).toEqual([1, 4, 2, 5, 3, 6]);
    // A module that imports a plain memory cannot take a shared one: the runtime picks by the memory.
    expect(() => run(KERNELS_PLAIN, new wasmApi.Memory({ initial: 1, maximum: 16, shared: true }))).toThrow();
  });
});
