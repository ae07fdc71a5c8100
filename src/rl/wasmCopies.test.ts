import * as tf from '@tensorflow/tfjs';
import { afterEach, describe, expect, it } from 'vitest';
import { Rng } from '../sim/rng';
import { onWasmBackend } from './testing';
import { installWasmCopies, setWasmCopies, wasmCopiesInstalled } from './wasmCopies';

onWasmBackend();
afterEach(() => setWasmCopies(true));

/** Seeded floats, about every seventh one a NaN (with a payload of its own), an infinity, a zero of either sign or a subnormal. */
function floats(n: number, seed: number): Float32Array {
  const rng = new Rng(seed, 11);
  const out = new Float32Array(n);
  const bits = new Int32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const u = rng.next();
    if (u < 0.03)
      bits[i] = 0x7fc00000 | Math.floor(rng.next() * 0x3fffff); // a NaN whose payload must survive
    else if (u < 0.15) out[i] = [Infinity, -Infinity, 0, -0, 1e-45, -1e-45][Math.floor(rng.next() * 6)];
    else out[i] = (rng.next() - 0.5) * 8;
  }
  return out;
}

/** Each output's shape and dtype, and its elements as raw bits (NaN payloads and -0 told apart). */
function bits(ts: tf.Tensor | tf.Tensor[]): { shape: string; words: Int32Array | Uint8Array }[] {
  return (Array.isArray(ts) ? ts : [ts]).map((t) => {
    const d = t.dataSync();
    const words = d instanceof Float32Array || d instanceof Int32Array ? new Int32Array(d.buffer, d.byteOffset, d.length) : (d as Uint8Array);
    return { shape: `[${t.shape.join(',')}] ${t.dtype}`, words };
  });
}

/**
 * f with these kernels and with the backend's own, on the same inputs: where the outputs differ (a
 * count, a shape or the first element that does), or nothing if every bit agrees.
 */
function differences(f: () => tf.Tensor | tf.Tensor[]): string[] {
  setWasmCopies(true);
  const ours = tf.tidy(() => bits(f()));
  setWasmCopies(false);
  const own = tf.tidy(() => bits(f()));
  if (ours.length !== own.length) return [`${ours.length} outputs against ${own.length}`];
  return ours.flatMap((o, k) => {
    const w = own[k];
    if (o.shape !== w.shape) return [`output ${k}: ${o.shape} against ${w.shape}`];
    let i = 0;
    while (i < o.words.length && o.words[i] === w.words[i]) i++;
    if (i === o.words.length) return [];
    return [`output ${k} at ${i}: bits ${o.words[i]} against ${w.words[i]}`];
  });
}

function tensor(shape: number[], seed: number, dtype: 'float32' | 'int32' = 'float32'): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  if (dtype === 'int32')
    return tf.tensor(
      Int32Array.from(floats(n, seed), (v) => (Number.isFinite(v) ? Math.round(v * 1000) : -7)),
      shape,
      'int32',
    );
  return tf.tensor(floats(n, seed), shape);
}

describe('wasm copies', () => {
  it('replace the backend kernels once, and only those', () => {
    expect(wasmCopiesInstalled()).toBe(true);
    const slice = tf.getKernel('Slice', 'wasm');
    installWasmCopies();
    expect(tf.getKernel('Slice', 'wasm')).toBe(slice);
    expect(tf.getKernel('Slice', 'cpu')?.kernelFunc).not.toBe(slice?.kernelFunc);
  });

  const slices: [string, number[], number[], number[]][] = [
    ['a run inside a vector', [17], [3], [9]],
    ['rows of a matrix (one run)', [13, 11], [2, 0], [5, 11]],
    ['columns of a matrix', [13, 11], [0, 3], [13, 4]],
    ['one column, to the end', [13, 11], [0, 10], [-1, 1]],
    ['a window of a matrix', [13, 11], [4, 1], [6, 7]],
    ['a single element', [13, 11], [12, 10], [1, 1]],
    ['nothing', [13, 11], [3, 3], [0, 4]],
    ['the whole tensor', [7, 9, 5], [0, 0, 0], [7, 9, 5]],
    ['the last channel of every row', [7, 9, 5], [0, 0, 4], [7, 9, 1]],
    ['one row of every matrix', [7, 9, 5], [0, 3, 0], [7, 1, 5]],
    ['a box of a 3-d tensor', [7, 9, 5], [1, 2, 1], [3, 4, 3]],
    ['a box of a 4-d tensor', [3, 4, 5, 6], [1, 0, 2, 1], [2, 4, 2, 4]],
    ['a box of a 5-d tensor', [2, 3, 4, 3, 5], [1, 1, 0, 1, 2], [1, 2, 4, 2, 3]],
  ];
  it.each(slices)('slice the same bits as the backend: %s', (_, shape, begin, size) => {
    for (const dtype of ['float32', 'int32'] as const) {
      expect(differences(() => tf.slice(tensor(shape, shape.length, dtype), begin, size))).toEqual([]);
    }
  });

  it.each([
    ['columns into unequal parts', [13, 11], [3, 3, 4, 1], 1],
    ['columns, the last part inferred', [13, 11], [2, -1], -1],
    ['rows into equal parts', [12, 5], 3, 0],
    ['rows, with an empty part', [12, 5], [5, 0, 7], 0],
    ['the middle axis of a 3-d tensor', [4, 9, 3], [2, 6, 1], 1],
  ] as [string, number[], number[] | number, number][])('split the same bits as the backend: %s', (_, shape, splits, axis) => {
    for (const dtype of ['float32', 'int32'] as const) {
      expect(differences(() => tf.split(tensor(shape, 7, dtype), splits, axis))).toEqual([]);
    }
  });

  it.each([
    [
      'columns',
      [
        [13, 11],
        [13, 2],
        [13, 5],
      ],
      1,
    ],
    [
      'one column each',
      [
        [40, 1],
        [40, 1],
        [40, 1],
      ],
      -1,
    ],
    [
      'rows',
      [
        [3, 4],
        [5, 4],
      ],
      0,
    ],
    [
      'with an empty input',
      [
        [6, 0],
        [6, 3],
        [6, 2],
      ],
      1,
    ],
    [
      'the last axis of 3-d tensors',
      [
        [4, 3, 2],
        [4, 3, 7],
      ],
      2,
    ],
    [
      'the middle axis of 3-d tensors',
      [
        [4, 3, 2],
        [4, 1, 2],
        [4, 5, 2],
      ],
      1,
    ],
  ] as [string, number[][], number][])('concatenate the same bits as the backend: %s', (_, shapes, axis) => {
    for (const dtype of ['float32', 'int32'] as const) {
      const inputs = () => shapes.map((s, i) => tensor(s, 20 + i, dtype));
      expect(differences(() => tf.concat(inputs(), axis))).toEqual([]);
    }
  });

  it('leave to the backend what they do not copy as bits: int32 beside float32, bool, a single input', () => {
    const x = tensor([9, 4], 3);
    const k = tensor([9, 1], 4, 'int32');
    const concat = (inputs: tf.Tensor[]) => tf.engine().runKernel('Concat', inputs as unknown as tf.NamedTensorMap, { axis: 1 }) as tf.Tensor;
    const mixed = tf.tidy(() => concat([x, k]));
    expect(mixed.dtype).toBe('float32');
    expect(Array.from(mixed.dataSync().subarray(4, 5))).toEqual([k.dataSync()[0]]); // the int converted, not its bits
    expect(differences(() => concat([x, k]))).toEqual([]);
    expect(differences(() => tf.concat([tf.greater(x, 0), tf.less(x, 1)], 1))).toEqual([]);
    expect(differences(() => tf.slice(tf.greater(x, 0), [1, 1], [3, 2]))).toEqual([]);
    expect(differences(() => tf.concat([x, tf.zeros([9, 0])], 1))).toEqual([]);
  });

  it('read the memory again after an output grows it', () => {
    const memory = () => (tf.backend() as unknown as { wasm: { HEAPU8: Uint8Array } }).wasm.HEAPU8.buffer;
    // An input a third the size of the memory: its outputs (3.75 times its size) cannot all fit.
    const n = Math.ceil(memory().byteLength / 12 / 64) * 64;
    const x = tf.tensor(floats(n, 5), [n / 64, 64]);
    const before = memory();
    let during: ArrayBufferLike | null = null;
    const outputs = () => {
      const out = [tf.slice(x, [0, 8], [-1, 48]), ...tf.split(x, [24, 40], 1), tf.concat([x, x], 1)];
      during ??= memory();
      return out;
    };
    expect(differences(outputs)).toEqual([]);
    expect(during).not.toBe(before);
    x.dispose();
  });
});
