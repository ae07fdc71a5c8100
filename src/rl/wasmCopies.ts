import * as tf from '@tensorflow/tfjs';

/**
 * Slice, SplitV and Concat for tfjs-backend-wasm that copy only what they return. The backend's own
 * kernels (4.22) copy the whole input out of its memory for every slice (`readSync`), so a split into
 * four parts copies its input four times, and they move a slice or a concatenation that is not one
 * run in memory row by row through a new typed-array view per row: in a learn step over tens of
 * thousands of decision rows that is megabytes of copies and tens of thousands of short-lived
 * objects per op. These kernels copy the same elements into the same places, four bytes at a time
 * (an integer copy keeps every float's bits, NaN payloads and -0 included), straight between the
 * tensors in the backend's memory. They replace the backend's kernels of those names for
 * float32 and int32 tensors once `installWasmCopies` has run; other dtypes, and every backend but
 * wasm, keep their kernels.
 */

/** The part of tfjs-backend-wasm 4.22's backend these kernels use. */
interface WasmBackendLike {
  wasm: { HEAPU8: Uint8Array };
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined };
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
}

type KernelArgs = { inputs: Record<string, tf.TensorInfo> | tf.TensorInfo[]; backend: object; attrs?: tf.NamedAttrMap };
type Kernel = (args: KernelArgs) => tf.TensorInfo | tf.TensorInfo[];

/** The backend's own kernels, kept to run what these do not cover and to put back. */
const originals = new Map<string, tf.KernelConfig>();
let enabled = true;

/** Runs the backend's own kernels (off) or these (on) once installed: for side-by-side timing and tests. */
export function setWasmCopies(on: boolean): void {
  enabled = on;
}

/** Dtypes of four bytes an element: copied as 32-bit integers. */
const copied = (dtype: tf.DataType) => dtype === 'float32' || dtype === 'int32';

let heap: Int32Array | null = null;

/** The backend's memory as 32-bit words; read after every allocation (an allocation may grow the memory and replace its buffer). */
function words(b: WasmBackendLike): Int32Array {
  const buffer = b.wasm.HEAPU8.buffer;
  if (heap === null || heap.buffer !== buffer) heap = new Int32Array(buffer);
  return heap;
}

/** Index of a tensor's first element in `words`. */
function at(b: WasmBackendLike, t: tf.TensorInfo): number {
  const data = b.dataIdMap.get(t.dataId);
  if (!data) throw new Error('wasm copy: a tensor is not in the wasm backend');
  return data.memoryOffset >>> 2;
}

/** Copies n words from src to dst; a loop for short runs, where a call per run would cost more than the copy. */
function move(h: Int32Array, dst: number, src: number, n: number): void {
  if (n < 16) for (let i = 0; i < n; i++) h[dst + i] = h[src + i];
  else h.copyWithin(dst, src, src + n);
}

/**
 * Copies the block of x (shape `shape`, its first element at `src`) that starts at `begin` and spans
 * `size`, in row-major order, to consecutive words from `dst`: one run per index of the dimensions
 * before the innermost one the block does not take whole.
 */
function copyBlock(h: Int32Array, src: number, shape: readonly number[], begin: readonly number[], size: readonly number[], dst: number): void {
  const rank = shape.length;
  if (rank === 0) {
    h[dst] = h[src];
    return;
  }
  const strides = new Array<number>(rank);
  strides[rank - 1] = 1;
  for (let d = rank - 2; d >= 0; d--) strides[d] = strides[d + 1] * shape[d + 1];
  // The run: the trailing dimensions taken whole, and the one before them.
  let k = rank - 1;
  let run = 1;
  while (k > 0 && begin[k] === 0 && size[k] === shape[k]) run *= shape[k--];
  run *= size[k];
  let from = src + begin[k] * strides[k];
  if (k === 0) return move(h, dst, from, run);
  if (k === 1) {
    const stride = strides[0];
    from += begin[0] * stride;
    for (let i = 0; i < size[0]; i++, from += stride, dst += run) move(h, dst, from, run);
    return;
  }
  const index = new Array<number>(k).fill(0);
  let runs = 1;
  for (let d = 0; d < k; d++) runs *= size[d];
  for (let r = 0; r < runs; r++, dst += run) {
    let s = from;
    for (let d = 0; d < k; d++) s += (begin[d] + index[d]) * strides[d];
    move(h, dst, s, run);
    for (let d = k - 1; d >= 0 && ++index[d] === size[d]; d--) index[d] = 0;
  }
}

function original(name: string, args: KernelArgs): tf.TensorInfo | tf.TensorInfo[] {
  return (originals.get(name)!.kernelFunc as unknown as Kernel)(args);
}

const KERNELS: Record<string, Kernel> = {
  Slice: (args) => {
    const x = (args.inputs as Record<string, tf.TensorInfo>).x;
    if (!enabled || !copied(x.dtype)) return original('Slice', args);
    const b = args.backend as WasmBackendLike;
    const [begin, size] = tf.slice_util.parseSliceParams(x as tf.Tensor, args.attrs!.begin as number[], args.attrs!.size as number[]);
    const out = b.makeOutput(size, x.dtype);
    if (tf.util.sizeFromShape(size) > 0) copyBlock(words(b), at(b, x), x.shape, begin, size, at(b, out));
    return out;
  },
  SplitV: (args) => {
    const x = (args.inputs as Record<string, tf.TensorInfo>).x;
    if (!enabled || !copied(x.dtype)) return original('SplitV', args);
    const b = args.backend as WasmBackendLike;
    const axis = tf.util.parseAxisParam(args.attrs!.axis as number, x.shape)[0];
    const sizes = tf.backend_util.prepareSplitSize(x as tf.Tensor, args.attrs!.numOrSizeSplits as number[] | number, axis);
    const parts = sizes.map((s) => {
      const shape = x.shape.slice();
      shape[axis] = s;
      return b.makeOutput(shape, x.dtype);
    });
    const h = words(b);
    const src = at(b, x);
    const begin = new Array<number>(x.shape.length).fill(0);
    for (const part of parts) {
      if (tf.util.sizeFromShape(part.shape) > 0) copyBlock(h, src, x.shape, begin, part.shape, at(b, part));
      begin[axis] += part.shape[axis];
    }
    return parts;
  },
  Concat: (args) => {
    const inputs = Object.values(args.inputs);
    const dtype = inputs[0]?.dtype;
    const filled = inputs.filter((t) => tf.util.sizeFromShape(t.shape) > 0);
    // Inputs of another dtype are converted by the backend's kernel (an int32 column beside float32 ones becomes floats).
    if (!enabled || !copied(dtype) || filled.length < 2 || inputs.some((t) => t.dtype !== dtype)) return original('Concat', args);
    const b = args.backend as WasmBackendLike;
    const axis = tf.util.parseAxisParam(args.attrs!.axis as number, inputs[0].shape)[0];
    tf.backend_util.assertParamsConsistent(
      inputs.map((t) => t.shape),
      axis,
    );
    const out = b.makeOutput(
      tf.backend_util.computeOutShape(
        inputs.map((t) => t.shape),
        axis,
      ),
      dtype,
    );
    const h = words(b);
    const outer = tf.util.sizeFromShape(filled[0].shape.slice(0, axis));
    const inner = filled.map((t) => tf.util.sizeFromShape(t.shape.slice(axis)));
    const width = inner.reduce((a, w) => a + w, 0);
    let col = at(b, out);
    filled.forEach((t, i) => {
      const w = inner[i];
      let src = at(b, t);
      for (let r = 0, dst = col; r < outer; r++, src += w, dst += width) move(h, dst, src, w);
      col += w;
    });
    return out;
  },
};

/** Whether these kernels have replaced the wasm backend's. */
export function wasmCopiesInstalled(): boolean {
  return originals.size === Object.keys(KERNELS).length;
}

/**
 * Puts these kernels in place of the wasm backend's Slice, SplitV and Concat (once; a no-op before
 * tfjs-backend-wasm has registered its kernels). Called where the wasm backend is started.
 */
export function installWasmCopies(): void {
  for (const [kernelName, kernelFunc] of Object.entries(KERNELS)) {
    const current = tf.getKernel(kernelName, 'wasm');
    if (!current || originals.has(kernelName)) continue;
    originals.set(kernelName, current);
    tf.unregisterKernel(kernelName, 'wasm');
    tf.registerKernel({ ...current, kernelFunc: kernelFunc as unknown as tf.KernelFunc });
  }
}
