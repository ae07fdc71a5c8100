import * as tf from '@tensorflow/tfjs';
import { KERNELS_PLAIN, KERNELS_SHARED } from './wasmKernelsBinary';

/**
 * Four kernels of the learn step, in one pass each where TF.js's wasm backend takes two to five
 * (wasmKernels.wat, assembled into wasmKernelsBinary.ts): a tall transpose, a scorer's hidden layer
 * (add the row's context, relu), a scorer's backward pass (the output product's gradient, relu's
 * mask, the context's sum, the output weights' gradient) and a weight gradient's
 * product over the decision rows (read once, where the backend's product reads its right operand
 * again for every four rows of the result). They run on tensors in tfjs-backend-wasm's own memory,
 * which their module imports, and write exactly the numbers the TF.js ops they replace write (the
 * tests compare them bit for bit, NaN, infinities and -0 included), so training is the same with and
 * without them. They are TF.js kernels of the wasm backend (`tf.registerKernel`), so tidy and
 * `tf.profile` see them as any other; on every other backend, on shapes they do not cover, or if the
 * module cannot start, the same functions run the TF.js ops instead.
 */

/** The part of tfjs-backend-wasm 4.22's backend the kernels use. */
interface WasmBackendLike {
  /** The Emscripten module: its memory is an export of the wasm (`asm.memory`), or for the threaded build, which creates it shared in JavaScript, `wasmMemory`. */
  wasm?: { asm?: { memory?: unknown }; wasmMemory?: unknown };
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined };
  makeOutput(shape: number[], dtype: 'float32'): tf.TensorInfo;
}

/** The module's exports: addresses are byte offsets into the backend's memory, sizes counts of floats. */
interface Exports {
  transpose(src: number, dst: number, rows: number, cols: number): void;
  addRelu(a: number, ctx: number, out: number, rows: number, items: number, width: number): void;
  scorerBack(z: number, d: number, w: number, dz: number, ctxT: number, gwT: number, rows: number, items: number, width: number, outs: number): void;
  tallProduct(a: number, aRow: number, aCol: number, b: number, c: number, n: number, p: number, q: number): void;
}

/** The module instantiated against each wasm backend's memory; null where it could not start. */
const instances = new WeakMap<object, Exports | null>();
let enabled = true;

/** Turns the kernels off (the TF.js ops run instead) or on again: for side-by-side timing and tests. */
export function setWasmKernels(on: boolean): void {
  enabled = on;
}

function bytes(base64: string): Uint8Array<ArrayBuffer> {
  const s = atob(base64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * The WebAssembly API, read off the global object: the layers under the page's are typed without the
 * DOM's declarations, which is where TypeScript declares WebAssembly.
 */
interface WebAssemblyApi {
  Memory: abstract new (...args: never[]) => { buffer: unknown };
  Module: new (bytes: Uint8Array<ArrayBuffer>) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

function instantiate(b: WasmBackendLike): Exports | null {
  const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  const memory = b.wasm?.asm?.memory ?? b.wasm?.wasmMemory;
  if (!api || !(memory instanceof api.Memory)) return null;
  const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
  try {
    const module = new api.Module(bytes(shared ? KERNELS_SHARED : KERNELS_PLAIN));
    return new api.Instance(module, { env: { memory } }).exports as Exports;
  } catch {
    return null; // no SIMD, or a memory this module cannot import: the TF.js ops run instead
  }
}

function exportsFor(backend: object): Exports | null {
  if (!instances.has(backend)) instances.set(backend, instantiate(backend as WasmBackendLike));
  return instances.get(backend) ?? null;
}

/** Whether the kernels run on the current backend (wasm, the module started, not turned off). */
export function wasmKernelsActive(): boolean {
  return enabled && tf.getBackend() === 'wasm' && exportsFor(tf.backend()) !== null;
}

type KernelArgs = { inputs: Record<string, tf.TensorInfo>; backend: object; attrs?: tf.NamedAttrMap };

function offset(b: WasmBackendLike, t: tf.TensorInfo): number {
  const data = b.dataIdMap.get(t.dataId);
  if (!data) throw new Error('wasm kernel: a tensor is not in the wasm backend');
  return data.memoryOffset;
}

const KERNELS: Record<string, (a: KernelArgs) => tf.TensorInfo | tf.TensorInfo[]> = {
  SwarmTransposeTall: ({ inputs, backend }) => {
    const b = backend as WasmBackendLike;
    const [rows, cols] = inputs.x.shape;
    const out = b.makeOutput([cols, rows], 'float32');
    exportsFor(b)!.transpose(offset(b, inputs.x), offset(b, out), rows, cols);
    return out;
  },
  SwarmAddRelu: ({ inputs, backend, attrs }) => {
    const b = backend as WasmBackendLike;
    const [n, width] = inputs.a.shape;
    const items = attrs!.items as number;
    const out = b.makeOutput([n, width], 'float32');
    exportsFor(b)!.addRelu(offset(b, inputs.a), offset(b, inputs.ctx), offset(b, out), n / items, items, width);
    return out;
  },
  SwarmTallProduct: ({ inputs, backend, attrs }) => {
    const b = backend as WasmBackendLike;
    const [n, q] = inputs.b.shape;
    const transposed = attrs!.transposed as boolean;
    const p = transposed ? inputs.a.shape[0] : inputs.a.shape[1];
    const out = b.makeOutput([p, q], 'float32');
    const [aRow, aCol] = transposed ? [4, 4 * n] : [4 * p, 4];
    exportsFor(b)!.tallProduct(offset(b, inputs.a), aRow, aCol, offset(b, inputs.b), offset(b, out), n, p, q);
    return out;
  },
  SwarmScorerBack: ({ inputs, backend, attrs }) => {
    const b = backend as WasmBackendLike;
    const [n, width] = inputs.z.shape;
    const outs = inputs.w.shape[1];
    const items = attrs!.items as number;
    const rows = n / items;
    const dz = b.makeOutput([n, width], 'float32');
    const ctxT = b.makeOutput([width, rows], 'float32');
    const gwT = b.makeOutput([outs, width], 'float32');
    exportsFor(b)!.scorerBack(
      offset(b, inputs.z),
      offset(b, inputs.d),
      offset(b, inputs.w),
      offset(b, dz),
      offset(b, ctxT),
      offset(b, gwT),
      rows,
      items,
      width,
      outs,
    );
    return [dz, ctxT, gwT];
  },
};
for (const [kernelName, kernelFunc] of Object.entries(KERNELS)) {
  if (!tf.getKernel(kernelName, 'wasm')) tf.registerKernel({ kernelName, backendName: 'wasm', kernelFunc: kernelFunc as unknown as tf.KernelFunc });
}

const float = (...ts: tf.Tensor[]) => ts.every((t) => t.dtype === 'float32');

/**
 * The transpose [cols x rows] of a tall [rows x cols] matrix, the same numbers as `tf.transpose`:
 * on wasm the kernel (blocks of 64 rows, each column of a block written as one run); elsewhere in two
 * passes over blocks of rows: each block of up to 256 rows transposed on its own, then the blocks'
 * columns laid side by side. tfjs-backend-wasm 4.22 walks a transpose in output order, so in one pass
 * it reads the whole input once per output row (docs/HISTORY.md, "Transposes in two passes").
 */
export function transposeTall(x: tf.Tensor2D): tf.Tensor2D {
  const [rows, cols] = x.shape;
  if (rows > 0 && cols > 0 && float(x) && wasmKernelsActive()) return tf.engine().runKernel('SwarmTransposeTall', { x }) as tf.Tensor2D;
  let block = 256;
  while (block > 8 && (rows % block !== 0 || block * cols > TRANSPOSE_BLOCK_FLOATS)) block /= 2;
  if (rows % block !== 0 || rows === block) return tf.transpose(x);
  return tf.tidy(() => tf.transpose(tf.transpose(x.reshape([rows / block, block, cols]), [0, 2, 1]), [1, 0, 2]).reshape([cols, rows]) as tf.Tensor2D);
}

/**
 * The product over the rows of two tall matrices, Σ_k a_k ⊗ b_k for b [n x q] and a [n x p] (aᵀ · b,
 * the numbers of `tf.matMul(transposeTall(a), b)`), or, with `transposed`, a given as its transpose
 * [p x n] (a · b, the numbers of `tf.matMul(a, b)`): a weight gradient of the learn step, summed over
 * its decision rows. On wasm in the kernel, which reads each operand once (tfjs-backend-wasm's product
 * reads the right one again for every four rows of the result) and never writes the transpose; for
 * fewer than `TALL_PRODUCT_MIN_COLUMNS` columns of b the backend's product is as fast, and runs.
 */
export function tallProduct(a: tf.Tensor2D, b: tf.Tensor2D, transposed = false): tf.Tensor2D {
  const n = b.shape[0];
  if ((transposed ? a.shape[1] : a.shape[0]) !== n) throw new Error(`tallProduct: [${a.shape}] and [${b.shape}] do not share their rows`);
  if (a.size > 0 && b.shape[1] >= TALL_PRODUCT_MIN_COLUMNS && float(a, b) && wasmKernelsActive())
    return tf.engine().runKernel('SwarmTallProduct', { a, b }, { transposed }) as tf.Tensor2D;
  return transposed ? tf.matMul(a, b) : tf.tidy(() => tf.matMul(transposeTall(a), b));
}

/** The fewest columns of b for which `tallProduct` runs its kernel (at 4, 147,456 rows: 4.6 ms against the backend's 4.4). */
const TALL_PRODUCT_MIN_COLUMNS = 8;

/** Most numbers in one block of `transposeTall`'s two passes (about 32 KiB of float32, a first-level cache). */
const TRANSPOSE_BLOCK_FLOATS = 8320;

/** Whether a scorer of this width over `n` items in rows of `items` fits the kernels (whole SIMD lanes). */
function scorerFits(n: number, width: number, items: number): boolean {
  return n > 0 && width > 0 && width % 4 === 0 && items >= 1 && n % items === 0;
}

/**
 * A scorer's hidden layer: relu(a + ctx) with a [rows·items x width] (the items' rows times the
 * input weights) and ctx [rows x width] (each row's context, added to each of its items), the same
 * numbers as `tf.relu(tf.add(a.reshape([rows, items, width]), ctx.reshape([rows, 1, width])))`.
 */
export function addRelu(a: tf.Tensor2D, ctx: tf.Tensor2D, items: number): tf.Tensor2D {
  const [n, width] = a.shape;
  if (scorerFits(n, width, items) && float(a, ctx) && wasmKernelsActive()) return tf.engine().runKernel('SwarmAddRelu', { a, ctx }, { items }) as tf.Tensor2D;
  const rows = n / items;
  return tf.tidy(() => tf.relu(tf.add(a.reshape([rows, items, width]), ctx.reshape([rows, 1, width]))).reshape([n, width]) as tf.Tensor2D);
}

/** What `scorerBackward` returns: [rows·items x width], [width x rows], [width x outs]. */
export interface ScorerBackward {
  dz: tf.Tensor2D;
  ctxT: tf.Tensor2D;
  dW: tf.Tensor2D;
}

/**
 * The backward pass through a scorer's hidden layer z [rows·items x width] (after its relu) and its
 * output product z · w (w [width x outs], outs 1 or 2), given the scores' gradient d [rows·items x
 * outs]: the gradient at the relu's input dz = (d · wᵀ) ⊙ step(z), its sum over each row's items in
 * the transposed layout the heads' gradients are stacked in, ctxT [width x rows] (the context's
 * gradient), and the output weights' gradient dW = zᵀ · d, the same numbers as `tf.matMul(zT, d)`
 * (on wasm all three in one kernel, dW summed in the order tfjs-backend-wasm's product sums it, so
 * zᵀ is never written).
 */
export function scorerBackward(z: tf.Tensor2D, d: tf.Tensor2D, w: tf.Tensor2D, items: number): ScorerBackward {
  const [n, width] = z.shape;
  const outs = w.shape[1];
  if (scorerFits(n, width, items) && (outs === 1 || outs === 2) && float(z, d, w) && wasmKernelsActive()) {
    const [dz, ctxT, gwT] = tf.engine().runKernel('SwarmScorerBack', { z, d, w }, { items }) as tf.Tensor2D[];
    const dW = outs === 1 ? gwT.reshape([width, 1]) : tf.transpose(gwT);
    gwT.dispose();
    return { dz, ctxT, dW: dW as tf.Tensor2D };
  }
  return tf.tidy(() => {
    // With one output the outer product d · wᵀ is a broadcast, so d is the right operand of one
    // product only (the wasm backend caches a product's packed right operand by its data alone, and
    // would reuse it for the same data in another shape).
    const back = outs === 1 ? tf.mul(d, w.reshape([1, width])) : tf.matMul(d, tf.transpose(w));
    const dz = tf.mul(back, tf.step(z)) as tf.Tensor2D;
    const ctxT = tf.transpose(tf.sum(dz.reshape([n / items, items, width]), 1)) as tf.Tensor2D;
    return { dz, ctxT, dW: tf.matMul(transposeTall(z), d) as tf.Tensor2D };
  });
}
