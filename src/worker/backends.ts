import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { getThreadsCount, setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { type BackendChoice, type BackendName, type BackendReport, type ThreadRequest } from './protocol';
import { planThreads } from './threads';
import { installWasmCopies } from '../rl/wasmCopies';
import { wasmKernelsActive } from '../rl/wasmKernels';

/** Limits of backend start-up and measurement. */
export interface ChooseOptions {
  /** Longest wait for one `tf.setBackend` (a threaded wasm start-up can hang forever). */
  initTimeoutMs: number;
  /** Time spent on timed probe runs per backend, after the warm-up run. */
  budgetMs: number;
  /** Most timed probe runs per backend. */
  maxRuns: number;
  /** Longest time one backend's warm-up plus timed runs may take before it counts as failed. */
  probeTimeoutMs: number;
  /** Once one backend is timed, each later one gets this many times the best time so far, start-up compile included... */
  slowFactor: number;
  /** ...but at least this many ms, to leave room for a GPU backend's shader compilation. */
  slowFloorMs: number;
  /** Also time GPUs emulated in software (slow start-up, lingering CPU load; see chooseBackend). */
  timeSoftware: boolean;
  /** Threads for the wasm backend (used only where the page is cross-origin isolated). */
  threads: ThreadRequest;
}

export const DEFAULT_CHOOSE_OPTIONS: ChooseOptions = {
  initTimeoutMs: 10_000,
  budgetMs: 1_000,
  maxRuns: 5,
  probeTimeoutMs: 20_000,
  slowFactor: 25,
  slowFloorMs: 2_500,
  timeSoftware: false,
  threads: 'auto',
};

const LABELS: Record<BackendName, string> = { webgpu: 'WebGPU', webgl: 'WebGL', wasm: 'WASM', cpu: 'CPU' };

/** The parts of the WebGPU API read here (the DOM typings of this TypeScript lack WebGPU). */
interface GpuAdapterInfo {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
  isFallbackAdapter?: boolean;
}
interface GpuAdapter {
  isFallbackAdapter?: boolean;
  info?: GpuAdapterInfo;
}
interface GpuNavigator {
  gpu?: { requestAdapter(options?: { powerPreference?: string }): Promise<GpuAdapter | null> };
}

/** What the WebGPU adapter is: absent, a software fallback, or real hardware with a short label. */
type AdapterKind = { kind: 'none'; why: string } | { kind: 'fallback'; label: string } | { kind: 'real'; label: string };

const SOFTWARE_ADAPTER = /swiftshader|llvmpipe|lavapipe|software|microsoft basic render/i;

let registered = false;
/** The wasm backend's factory as tfjs-backend-wasm registered it, to register it again after a failed threaded start. */
let wasmFactory: ReturnType<typeof tf.findBackendFactory> | null = null;
/** Threads of the wasm backend once started in this worker (a backend starts once per worker). */
let wasmStarted: Pick<BackendReport, 'threads' | 'threadsWhy' | 'threadsNote'> | null = null;
/** tfjs-backend-wasm's priority (it registers the backend with it). */
const WASM_PRIORITY = 2;

/** Points the wasm backend at the served binaries. Idempotent. */
function registerBackends(): void {
  if (registered) return;
  registered = true;
  setWasmPaths(`${import.meta.env.BASE_URL}tfjs-wasm/`);
  wasmFactory = tf.findBackendFactory('wasm');
}

/** Makes the next wasm start-up use the threaded binary with `threads` threads, or the single-threaded one. */
function configureWasmThreads(threads: number): void {
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', threads > 1);
  setThreadsCount(threads);
}

/**
 * Runs `start` while the worker's `navigator.hardwareConcurrency` reads `2 * threads`.
 * tfjs-backend-wasm caps its thread pool at half the logical cores (it assumes two hardware
 * threads per core), read once when the wasm module starts, so on a machine whose logical cores
 * are real cores it would never use more than half of them, whatever setThreadsCount asked for.
 * The own property shadows the prototype's getter and is removed again afterwards.
 */
async function withLogicalCores<T>(threads: number, start: () => Promise<T>): Promise<T> {
  const nav = globalThis.navigator as Navigator | undefined;
  if (!nav || threads <= 1) return start();
  Object.defineProperty(nav, 'hardwareConcurrency', { value: 2 * threads, configurable: true });
  try {
    return await start();
  } finally {
    delete (nav as { hardwareConcurrency?: number }).hardwareConcurrency;
  }
}

/** Threads the started wasm backend reports, or 1 where it cannot say. */
function wasmThreadsInUse(): number {
  try {
    return Math.max(1, getThreadsCount());
  } catch {
    return 1;
  }
}

/** The started wasm backend's own controls of its thread pool (public on tfjs-backend-wasm's BackendWasm). */
interface WasmPool {
  initWithThreadsCount(threads: number): void;
  getThreadsCount(): number;
}

/**
 * Gives the running wasm backend a thread pool of `threads` (at most as many as it started with)
 * and returns the threads it reports. tfjs makes a new pool; the old pool's threads stay idle.
 */
function setWasmPoolThreads(threads: number): number {
  const pool = (tf.backend() as unknown as { wasm?: { tfjs?: WasmPool } }).wasm?.tfjs;
  if (!pool) return wasmThreadsInUse();
  pool.initWithThreadsCount(threads);
  return Math.max(1, pool.getThreadsCount());
}

/**
 * With `auto` threads, times the probe on the started wasm backend again with one thread and
 * keeps whichever was faster: on a machine whose cores are busy with other work, threads that
 * wait on each other can be slower than one. Returns the better median.
 */
async function chooseWasmThreads(
  probe: () => Promise<void> | void,
  msThreaded: number,
  limitMs: number,
  opts: ChooseOptions,
  report: BackendReport,
): Promise<number> {
  const threads = report.threads ?? 1;
  if (opts.threads !== 'auto' || threads <= 1 || wasmStarted === null) return msThreaded;
  setWasmPoolThreads(1);
  let single: number | null = null;
  try {
    single = await withTimeout(
      measure(probe, opts, Infinity, () => false),
      limitMs,
      'wasm timing with 1 thread',
    );
  } catch (err) {
    report.notices.push(`wasm with 1 thread: ${errorText(err)}`);
  }
  const timings = `${threads} threads ${formatMs(msThreaded)}, 1 thread ${single === null ? 'not timed' : formatMs(single)} per step`;
  if (single !== null && single < msThreaded) {
    wasmStarted = { threads: 1, threadsWhy: `one was faster than ${threads} here (measured: ${timings})` };
  } else {
    wasmStarted = { threads: setWasmPoolThreads(threads), threadsWhy: `${wasmStarted.threadsWhy}; faster than one thread (measured: ${timings})` };
  }
  Object.assign(report, wasmStarted);
  return single !== null && single < msThreaded ? single : msThreaded;
}

/**
 * Starts the wasm backend with the planned threads. If the threaded start fails or hangs, the
 * backend is registered afresh and started single-threaded, and the notices say why.
 */
async function startWasm(opts: ChooseOptions, report: BackendReport): Promise<void> {
  if (tf.findBackend('wasm') !== null && wasmStarted !== null) {
    await initBackend('wasm', opts.initTimeoutMs);
    Object.assign(report, wasmStarted);
    return;
  }
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  const plan = planThreads(opts.threads, isolated, globalThis.navigator?.hardwareConcurrency ?? 1);
  configureWasmThreads(plan.threads);
  try {
    await withLogicalCores(plan.threads, () => initBackend('wasm', opts.initTimeoutMs));
    const threads = wasmThreadsInUse();
    const fewer = opts.threads !== 'auto' && threads < plan.threads ? `asked for ${plan.threads}; the wasm backend started ${threads}` : undefined;
    wasmStarted = { threads, threadsWhy: fewer ? `${plan.why}; the wasm backend started ${threads}` : plan.why };
    const note = plan.short ?? fewer;
    if (note) wasmStarted.threadsNote = note;
    Object.assign(report, wasmStarted);
    return;
  } catch (err) {
    if (plan.threads <= 1 || wasmFactory === null) throw err;
    report.notices.push(`wasm with ${plan.threads} threads: ${errorText(err)}`);
  }
  if (tf.findBackendFactory('wasm') === null) tf.registerBackend('wasm', wasmFactory, WASM_PRIORITY);
  configureWasmThreads(1);
  await initBackend('wasm', opts.initTimeoutMs);
  wasmStarted = { threads: 1, threadsWhy: `threads did not start (${plan.threads} asked for), so one thread` };
  if (opts.threads !== 'auto') wasmStarted.threadsNote = `asked for ${plan.threads}; threads did not start`;
  Object.assign(report, wasmStarted);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

class TimeoutError extends Error {}

/** Resolves like `p`, or rejects with a TimeoutError after `ms`, `what` in the message. */
function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} gave no result within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

async function inspectAdapter(timeoutMs: number): Promise<AdapterKind> {
  const gpu = (globalThis.navigator as GpuNavigator | undefined)?.gpu;
  if (!gpu) return { kind: 'none', why: 'this browser has no WebGPU' };
  let adapter: GpuAdapter | null;
  try {
    adapter = await withTimeout(gpu.requestAdapter({ powerPreference: 'high-performance' }), timeoutMs, 'requestAdapter');
  } catch (err) {
    return { kind: 'none', why: errorText(err) };
  }
  if (!adapter) return { kind: 'none', why: 'no WebGPU adapter' };
  const info = adapter.info ?? {};
  const vendor = info.vendor ?? '';
  const label = [vendor, info.architecture].filter((s) => s).join('/') || 'unknown adapter';
  const text = [vendor, info.architecture, info.device, info.description].join(' ');
  const fallback = adapter.isFallbackAdapter === true || info.isFallbackAdapter === true || SOFTWARE_ADAPTER.test(text) || vendor === '';
  return fallback ? { kind: 'fallback', label } : { kind: 'real', label };
}

/** Switches TF.js to `name`; throws if it does not start or does not start in time. */
async function initBackend(name: BackendName, timeoutMs: number): Promise<void> {
  if (tf.findBackendFactory(name) == null) throw new Error('not available in this browser');
  let ok: boolean;
  try {
    ok = await withTimeout(tf.setBackend(name), timeoutMs, `setBackend('${name}')`);
  } catch (err) {
    // A hung start-up leaves TF.js waiting on it; removing the backend releases the engine.
    tf.removeBackend(name);
    throw err;
  }
  if (!ok) throw new Error('failed to initialise (see the console for the cause)');
  await tf.ready();
  if (name === 'wasm') installWasmCopies();
}

/**
 * Median ms of `probe` after one warm-up run, within the time budget. Stops after the first timed
 * run when that is already over twice `best` (the fastest median so far): it cannot win. Stops
 * dispatching work once `abandoned()` says the caller gave up on it.
 */
async function measure(probe: () => Promise<void> | void, opts: ChooseOptions, best: number, abandoned: () => boolean): Promise<number> {
  await probe();
  const times: number[] = [];
  const start = performance.now();
  const enough = () => times.length >= opts.maxRuns || (times.length > 0 && (performance.now() - start >= opts.budgetMs || times[0] > 2 * best));
  while (!enough()) {
    if (abandoned()) throw new Error('abandoned');
    const t0 = performance.now();
    await probe();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  return times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
}

/** Starts `name`; on failure records a notice and returns false. */
async function startBackend(name: BackendName, opts: ChooseOptions, report: BackendReport): Promise<boolean> {
  try {
    if (name === 'wasm') await startWasm(opts, report);
    else await initBackend(name, opts.initTimeoutMs);
    return true;
  } catch (err) {
    report.notices.push(`${name}: ${errorText(err)}`);
    return false;
  }
}

/** Outcome of timing one backend: its median ms, or null and whether it ran out of time. */
interface Timing {
  ms: number | null;
  timedOut: boolean;
}

/** Starts `name` and times `probe` on it within `limitMs`; records the timing (null on failure) and any notice. */
async function timeBackend(name: BackendName, probe: () => Promise<void> | void, limitMs: number, opts: ChooseOptions, report: BackendReport): Promise<Timing> {
  const best = Math.min(Infinity, ...Object.values(report.timings).filter((t): t is number => t != null));
  report.timings[name] = null;
  if (!(await startBackend(name, opts, report))) return { ms: null, timedOut: false };
  let gaveUp = false;
  const timed = measure(probe, opts, best, () => gaveUp);
  try {
    let ms = await withTimeout(timed, limitMs, `${name} timing`);
    if (name === 'wasm') ms = await chooseWasmThreads(probe, ms, limitMs, opts, report);
    report.timings[name] = Math.round(ms * 10) / 10;
    return { ms, timedOut: false };
  } catch (err) {
    gaveUp = true;
    timed.catch(() => undefined);
    report.notices.push(`${name}: ${errorText(err)}`);
    return { ms: null, timedOut: err instanceof TimeoutError };
  }
}

function formatMs(ms: number): string {
  return ms >= 10 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`;
}

/** The WebGL renderer string of the started webgl backend, if it can be read. */
function webglRenderer(): string {
  const gl = (tf.backend() as unknown as { gpgpu?: { gl?: WebGLRenderingContext } }).gpgpu?.gl;
  if (!gl) return '';
  const debug = gl.getExtension('WEBGL_debug_renderer_info');
  return String(gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
}

/** What a GPU backend runs on where that is emulated in software ("WebGL renderer"), or null where it is hardware or no GPU. `name` must be the started backend. */
function softwareSubject(name: BackendName, adapter: AdapterKind): string | null {
  if (name === 'webgpu') return adapter.kind === 'fallback' ? 'WebGPU adapter' : null;
  if (name === 'webgl') return SOFTWARE_ADAPTER.test(webglRenderer()) ? 'WebGL renderer' : null;
  return null;
}

/** The words, the same in auto mode and for a backend chosen by hand: "WebGL renderer is a software fallback". */
function softwareSentence(subjects: string[]): string {
  return subjects.length === 1 ? `${subjects[0]} is a software fallback` : `${subjects.join(' and ')} are software fallbacks`;
}

/**
 * Picks the TF.js backend to train on, leaves TF.js switched to it, and says why.
 *
 * `auto`: WebGPU when a real (hardware) adapter exists and starts. Otherwise the backends are timed
 * on `probe` (one forward+backward step of the real model) and the fastest wins: wasm first, cpu
 * only if wasm fails (plain JS never beats it, and timing it costs seconds), then webgl. A GPU that
 * is emulated in software (a fallback WebGPU adapter, a SwiftShader or llvmpipe WebGL renderer) is
 * not timed unless `timeSoftware` is set: its shader compilation takes seconds, and a software
 * WebGPU keeps the CPU busy compiling for tens of seconds after it is given up, slowing training.
 * After the first result, a backend gets at most `slowFactor` times the best time so far (at least
 * `slowFloorMs`) for its start-up compile and timing; past that it is given up as too slow.
 *
 * A forced choice is used if it starts, and said to be emulated in software where it is. Otherwise
 * the backend is chosen as `auto` chooses it (the forced one not tried again), and the report says
 * which was asked for and why it did not start (`fellBack`). Every start-up and measurement is
 * time-limited, so a hanging backend becomes a notice instead of a hang. Throws when no backend
 * starts.
 */
export async function chooseBackend(choice: BackendChoice, probe: () => Promise<void> | void, options: Partial<ChooseOptions> = {}): Promise<BackendReport> {
  const opts = { ...DEFAULT_CHOOSE_OPTIONS, ...options };
  registerBackends();
  const report: BackendReport = { backend: 'cpu', reason: '', timings: {}, notices: [] };
  const adapter = await inspectAdapter(opts.initTimeoutMs);
  const noGpu = adapter.kind === 'none';
  if (noGpu) report.notices.push(`webgpu: ${adapter.why}`);
  const done = (backend: BackendName, reason: string): BackendReport => {
    const { threads, threadsWhy, threadsNote, ...rest } = report;
    const software = softwareSubject(backend, adapter) !== null;
    const wasm = backend === 'wasm' ? { threads, threadsWhy, ...(threadsNote ? { threadsNote } : {}), kernels: wasmKernelsActive() } : {};
    return { ...rest, backend, reason, ...wasm, ...(software ? { software } : {}) };
  };
  const fail = (): never => {
    throw new Error(`no TF.js backend could start: ${report.notices.join('; ')}`);
  };

  let skip: BackendName | null = null;
  let prefix = '';
  if (choice !== 'auto') {
    const absent = choice === 'webgpu' && noGpu ? adapter.why : null;
    if (absent === null && (await startBackend(choice, opts, report))) {
      const subject = softwareSubject(choice, adapter);
      return done(choice, `${LABELS[choice]}: chosen by hand${subject ? `; ${softwareSentence([subject])}` : ''}`);
    }
    skip = choice;
    report.fellBack = { from: choice, why: absent ?? 'it did not start' };
    prefix = `${LABELS[choice]} was chosen by hand but ${absent === null ? 'did not start' : `is not available here (${absent})`}, so this one was chosen as auto chooses: `;
  }

  if (adapter.kind === 'real' && skip !== 'webgpu' && (await startBackend('webgpu', opts, report))) return done('webgpu', `WebGPU: ${prefix}${adapter.label}`);

  const software: string[] = [];
  if (adapter.kind === 'fallback' && skip !== 'webgpu') {
    software.push('WebGPU adapter');
    if (!opts.timeSoftware) report.notices.push(`webgpu: adapter ${adapter.label} is a software fallback, not timed`);
  }
  const measured: [BackendName, number][] = [];
  let gpuGaveUpAfter = 0;
  for (const name of ['wasm', 'cpu', 'webgl', 'webgpu'] as const) {
    if (name === skip) continue;
    if (name === 'cpu' && measured.some(([n]) => n === 'wasm')) continue;
    if (name === 'webgpu' && (adapter.kind !== 'fallback' || !opts.timeSoftware)) continue;
    if (name === 'webgl' && !opts.timeSoftware) {
      if (!(await startBackend('webgl', opts, report))) {
        report.timings.webgl = null;
        continue;
      }
      const renderer = webglRenderer();
      if (softwareSubject('webgl', adapter) !== null) {
        software.push('WebGL renderer');
        report.notices.push(`webgl: renderer ${renderer} is a software fallback, not timed`);
        continue;
      }
    }
    const best = measured.length ? Math.min(...measured.map(([, ms]) => ms)) : Infinity;
    const limit = Number.isFinite(best) ? Math.round(Math.min(opts.probeTimeoutMs, Math.max(opts.slowFloorMs, opts.slowFactor * best))) : opts.probeTimeoutMs;
    const timing = await timeBackend(name, probe, limit, opts, report);
    if (timing.ms !== null) measured.push([name, timing.ms]);
    else if (name === 'webgpu' && timing.timedOut && Number.isFinite(best)) gpuGaveUpAfter = limit;
  }
  if (measured.length === 0) return fail();
  const [best, bestMs] = measured.reduce((a, b) => (b[1] < a[1] ? b : a));
  if (tf.getBackend() !== best) await initBackend(best, opts.initTimeoutMs);
  const parts: string[] = [];
  const gpuMs = report.timings.webgpu;
  if (best !== 'webgpu' && gpuMs != null) parts.push(`WebGPU adapter is a software fallback, ${Math.max(1, Math.round(gpuMs / bestMs))}x slower here`);
  else if (best !== 'webgpu' && gpuGaveUpAfter > 0)
    parts.push(`WebGPU adapter is a software fallback, over ${Math.round(gpuGaveUpAfter / bestMs)}x slower here`);
  else if (software.length > 0) parts.push(softwareSentence(software));
  if (measured.length > 1) parts.push(`fastest of ${measured.map(([n, ms]) => `${n} ${formatMs(ms)}`).join(', ')}`);
  if (parts.length === 0) parts.push(`the only backend that ran, ${formatMs(bestMs)} per step`);
  return done(best, `${LABELS[best]}: ${prefix}${parts.join('; ')}`);
}
