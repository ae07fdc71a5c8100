import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeRunFile, encodeRunFile, runFacts } from '../core/runFile';
import { fakeRun, fakeUpdate, testConfig } from '../core/testing';
import { guardApi, type TrainerClient, type WorkerFault } from '../worker/client';
import type { BackendChoice, BackendName, RaceRequest, RaceSwarm, RunState, TrainerApi, TrainingFault, UpdateMessage } from '../worker/protocol';
import { directCodec, type RunCodec } from '../worker/runCodec';
import { faultMessage } from '../rl/numericFault';
import { RunLibrary } from '../store/runDatabase';
import { RecordingSaver } from './recordingSaver';
import type { TrainingLock } from './trainingLock';
import { beforeNextFrame, FRAME_FALLBACK_MS, nextBackend, replaySwarm, TrainingSession, type PageEvents } from './session';
import { createAppStore, useApp as pageStore, type AppState } from '../store/store';
import type { StoreApi } from 'zustand';

/** A fresh store for every test, handed to the session (the page's store is never touched). */
let store: StoreApi<AppState> = createAppStore();

/** Resolves after pending promise callbacks have run (no timers involved). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** Polls `f` across macrotasks until it holds (a condition, not a sleep). */
async function until(f: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (f()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never: ${what}`);
}

/**
 * A worker that trains nothing: it sends made-up updates, records them as a run file, can be held
 * before `init` answers, and faults on demand (as a crashed worker: every call rejects).
 */
class FakeWorker {
  readonly calls: string[] = [];
  updates = 0;
  backend: BackendName | null = null;
  resumedFrom: Uint8Array | null = null;
  raced: RaceSwarm | undefined | null = null;
  failNextStart: Error | null = null;
  /** When set, the next `start` stops for this fault (as the trainer's numeric guard would). */
  faultNextStart: TrainingFault | null = null;
  private onUpdate: (u: UpdateMessage) => void = () => undefined;
  private onState: (s: RunState) => void = () => undefined;
  private stopLoop: (() => void) | null = null;
  private openInit: (() => void) | null = null;
  private fault: (f: WorkerFault) => void = () => undefined;
  readonly client: TrainerClient;

  /** Reports a run state as the worker would on its own (a booting or restarting worker says idle). */
  report(state: RunState): void {
    this.onState(state);
  }

  /** When set, `init` on this backend fails (as a backend that cannot start). */
  static failingBackend: BackendChoice | null = null;

  constructor(holdInit: boolean) {
    const faulted = new Promise<WorkerFault>((r) => (this.fault = r));
    const initGate = holdInit ? new Promise<void>((r) => (this.openInit = r)) : Promise.resolve();
    // The fake API is a plain object of methods standing in for the worker; they report to this fake.
    // oxlint-disable-next-line typescript/no-this-alias
    const self = this;
    const api: TrainerApi = {
      async subscribe(u, s) {
        self.onUpdate = u;
        self.onState = s;
      },
      async setRecording() {},
      async init(_c, backend: BackendChoice) {
        self.calls.push(`init ${backend}`);
        await initGate;
        if (backend === FakeWorker.failingBackend) throw new Error(`no ${backend} here`);
        self.backend = backend === 'auto' ? 'webgl' : backend;
        return { backend: self.backend, reason: self.backend, timings: {}, notices: [] };
      },
      async start() {
        self.calls.push('start');
        if (self.failNextStart) {
          const e = self.failNextStart;
          self.failNextStart = null;
          self.onState('running');
          self.onState('paused');
          throw e;
        }
        if (self.faultNextStart) {
          const f = self.faultNextStart;
          self.faultNextStart = null;
          self.onState('running');
          self.onState('paused');
          return f;
        }
        self.onState('running');
        await new Promise<void>((r) => (self.stopLoop = r));
        return null;
      },
      async pause() {
        self.calls.push('pause');
        self.stopLoop?.();
        self.stopLoop = null;
        self.onState('paused');
      },
      async step() {
        self.calls.push('step');
        self.emit();
        self.onState('paused');
        return null;
      },
      async reset() {
        self.calls.push('reset');
        self.updates = 0;
      },
      async setConfig() {
        self.calls.push('setConfig');
        return { rebuilt: false, update: self.updates };
      },
      async weights() {
        throw new Error('not used');
      },
      async loadWeights() {},
      async resetWith() {
        self.calls.push('resetWith');
      },
      async recording() {
        if (self.updates === 0) return null;
        const run = { ...fakeRun(self.updates), name: 'live run' };
        const bytes = encodeRunFile(run);
        return { bytes, facts: runFacts(run, bytes.length) };
      },
      async race(_r: RaceRequest, swarm?: RaceSwarm) {
        self.raced = swarm;
        return { family: 'coupled', agents: 2, updates: swarm?.updates ?? self.updates, race: [], scaling: [], ms: 1, ...(swarm ? { swarm: swarm.name } : {}) };
      },
      async ping() {
        return true;
      },
      async memory() {
        return { tensors: 0, tensorBytes: 0, heapBytes: null, recordedUpdates: self.updates };
      },
      async resume(bytes) {
        self.calls.push('resume');
        self.resumedFrom = bytes;
        const r = decodeRunFile(bytes);
        if (!r.ok) throw new Error(r.error);
        self.updates = r.run.checkpoints.items.at(-1)!.updates;
        return { updates: self.updates, config: r.run.config, name: r.run.name };
      },
    };
    this.client = { api: guardApi(api, faulted), faulted, terminate: () => this.calls.push('terminate'), injectFault: () => undefined };
  }

  /** Sends the next made-up update. */
  emit(): void {
    this.onUpdate(fakeUpdate(this.updates, 100) as UpdateMessage);
    this.updates++;
  }

  release(): void {
    this.openInit?.();
  }

  crash(): void {
    this.fault({ kind: 'error', message: 'The training worker crashed (injected).' });
  }
}

/** Page events fired by hand. */
function fakePage(): PageEvents & { fire(type: string): void; isHidden: boolean } {
  const ls: Record<string, (() => void)[]> = {};
  const page = {
    isHidden: false,
    addEventListener: (t: string, f: () => void) => void (ls[t] ??= []).push(f),
    removeEventListener: (t: string, f: () => void) => void (ls[t] = (ls[t] ?? []).filter((g) => g !== f)),
    hidden: () => page.isHidden,
    fire: (t: string) => ls[t]?.forEach((f) => f()),
  };
  return page;
}

let dbCount = 0;

/** A training lock another (made-up) tab may hold: `other` says whether it does, `steal` takes it from this one. */
function fakeLock() {
  let lost = () => undefined as void;
  const lock = {
    other: false,
    mine: false,
    acquire: async () => (lock.other ? false : (lock.mine = true)),
    takeOver: async () => void ((lock.other = false), (lock.mine = true)),
    release: () => void (lock.mine = false),
    onLost: (f: () => void) => void (lost = f),
    steal: () => {
      lock.mine = false;
      lock.other = true;
      lost();
    },
  };
  return lock;
}

function setup(
  options: { holdInit?: boolean; autosaveMs?: number; codec?: RunCodec; nextFrame?: (f: () => void) => void; viewRefreshMs?: number; lock?: TrainingLock } = {},
) {
  const workers: FakeWorker[] = [];
  const libOpen = RunLibrary.open(`session-test-${++dbCount}`);
  const saver = new RecordingSaver({
    store: store,
    library: () => libOpen,
    refresh: async () => store.getState().setLibrary({ runs: await (await libOpen).list() }),
  });
  const page = fakePage();
  let clock = 0;
  const session = new TrainingSession({
    store: store,
    createClient: () => {
      const w = new FakeWorker(options.holdInit ?? false);
      workers.push(w);
      return w.client;
    },
    saver,
    refreshRuns: async () => undefined,
    storedRun: async (id) => (await (await libOpen).exportRun(id)).bytes,
    codec: options.codec,
    page,
    autosaveMs: options.autosaveMs ?? 60_000,
    now: () => clock,
    nextFrame: options.nextFrame,
    viewRefreshMs: options.viewRefreshMs ?? 0,
    lock: options.lock,
  });
  store.setState({ actions: session.actions });
  session.open();
  /** Moves the session's clock on (it only moves when told). */
  const advance = (ms: number) => void (clock += ms);
  return { session, workers, saver, page, lib: libOpen, a: session.actions, advance };
}

let opened: TrainingSession[] = [];

beforeEach(() => {
  FakeWorker.failingBackend = null;
  store = createAppStore();
  store.getState().setConfig(testConfig());
  opened = [];
});

afterEach(() => {
  for (const s of opened) s.close();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function open(options: Parameters<typeof setup>[0] = {}) {
  const t = setup(options);
  opened.push(t.session);
  return t;
}

describe('TrainingSession', () => {
  it('Train clicked before the worker is ready waits for it instead of failing', async () => {
    const { workers, a } = open({ holdInit: true });
    const w = workers[0];
    void a.start();
    await settle();
    expect(w.calls).toEqual(['init auto']);
    expect(store.getState().error).toBeNull();
    w.release();
    await until(() => store.getState().runState === 'running', 'running');
    expect(w.calls).toEqual(['init auto', 'start']);
    expect(store.getState().error).toBeNull();
  });

  it("works on the store it is handed and leaves the page's store alone", async () => {
    const untouched = pageStore.getState();
    const { a } = open();
    await until(() => store.getState().backend !== null, 'ready');
    await a.step();
    await until(() => store.getState().metrics.length === 1, 'the update in the handed store');
    expect(pageStore.getState()).toBe(untouched);
  });

  it('marks a settings change where the worker says it took effect; a structural change starts a new run instead', async () => {
    const { workers, a } = open();
    await until(() => store.getState().backend !== null, 'ready');
    await a.step();
    await a.step();
    const before = store.getState().config;
    await a.configure({ tmaxEnd: before.tmaxEnd + 6 });
    expect(workers[0].calls.at(-1)).toBe('setConfig');
    expect(store.getState().liveChanges).toEqual({ config: before, configChanges: [{ update: 2, config: { ...before, tmaxEnd: before.tmaxEnd + 6 } }] });
    await a.configure({ agents: before.agents === 3 ? 4 : 3 });
    expect(workers[0].calls.at(-1)).toBe('reset');
    expect(store.getState().liveChanges).toBeNull();
    expect(store.getState().metrics).toHaveLength(0);
  });

  it('a notice from an earlier failure does not outlive a later success', async () => {
    const { workers, a } = open();
    await until(() => store.getState().backend !== null, 'ready');
    store.getState().setError('an earlier failure');
    void a.start();
    await until(() => store.getState().runState === 'running', 'running');
    expect(store.getState().error).toBeNull();
    await a.pause();
    store.getState().setError('another failure');
    await a.step();
    expect(store.getState().error).toBeNull();
    expect(workers[0].calls.filter((c) => c === 'step')).toHaveLength(1);
  });

  it('views get updates live; with live views off they wait and catch up at once', async () => {
    const { workers, a, session } = open();
    await until(() => store.getState().backend !== null, 'ready');
    await a.step();
    await session.shown();
    expect(store.getState().metrics).toHaveLength(1);
    a.setLive(false);
    workers[0].emit();
    workers[0].emit();
    await session.shown();
    expect(store.getState().metrics).toHaveLength(1);
    a.setLive(true);
    await session.shown();
    expect(store.getState().metrics.map((m) => m.update)).toEqual([0, 1, 2]);
  });

  it('updates that arrive before a frame reach the views together in it, in one change of the store', async () => {
    const frames: (() => void)[] = [];
    const { workers, a, session } = open({ nextFrame: (f) => frames.push(f) });
    await until(() => store.getState().backend !== null, 'ready');
    void a.start();
    await until(() => store.getState().runState === 'running', 'running');
    let changes = 0;
    const unsubscribe = store.subscribe((s, prev) => void (s.metrics !== prev.metrics && changes++));
    for (let i = 0; i < 3; i++) workers[0].emit();
    // One frame asked for, nothing drawn before it.
    expect(frames).toHaveLength(1);
    expect(store.getState().metrics).toHaveLength(0);
    frames.shift()!();
    await session.shown();
    expect(store.getState().metrics.map((m) => m.update)).toEqual([0, 1, 2]);
    expect(store.getState().last?.metrics.update).toBe(2);
    expect(changes).toBe(1);
    // The loop stopping hands over what is waiting at once, before the state changes.
    workers[0].emit();
    await a.pause();
    await session.shown();
    expect(store.getState().metrics).toHaveLength(4);
    for (const f of frames.splice(0)) f();
    await session.shown();
    expect(store.getState().metrics).toHaveLength(4);
    // A new run drops the old run's updates that were waiting for a frame.
    workers[0].emit();
    await a.reset();
    for (const f of frames.splice(0)) f();
    await session.shown();
    expect(store.getState().metrics).toHaveLength(0);
    unsubscribe();
  });

  it('updates that stream in faster than the views refresh reach them at most once per viewRefreshMs, and all of them', async () => {
    const frames: (() => void)[] = [];
    const { workers, a, advance, session } = open({ nextFrame: (f) => frames.push(f), viewRefreshMs: 100 });
    await until(() => store.getState().backend !== null, 'ready');
    void a.start();
    await until(() => store.getState().runState === 'running', 'running');
    workers[0].emit();
    frames.shift()!();
    await session.shown();
    expect(store.getState().metrics.map((m) => m.update)).toEqual([0]);
    // Two more arrive 40 ms later: the frames before 100 ms have passed hand nothing over.
    advance(40);
    workers[0].emit();
    workers[0].emit();
    frames.shift()!();
    advance(40);
    frames.shift()!();
    await session.shown();
    expect(store.getState().metrics).toHaveLength(1);
    expect(frames).toHaveLength(1);
    // The first frame 100 ms after the last hand-over takes both.
    advance(20);
    frames.shift()!();
    await session.shown();
    expect(store.getState().metrics.map((m) => m.update)).toEqual([0, 1, 2]);
    expect(frames).toHaveLength(0);
  });

  it('a crashed worker is replaced and the run resumes from its last checkpoint, still running, into the same library entry', async () => {
    const { workers, a, saver, lib, session } = open();
    await until(() => store.getState().backend !== null, 'ready');
    // The loop's call stays pending until the worker dies: it must not wait forever.
    const loop = a.start();
    await until(() => store.getState().runState === 'running', 'running');
    for (let i = 0; i < 5; i++) workers[0].emit();
    await a.saveNow();
    const entry = store.getState().recordingId;
    expect(entry).not.toBeNull();
    workers[0].emit();
    workers[0].emit();
    await session.shown();
    expect(store.getState().metrics).toHaveLength(7);
    workers[0].crash();
    await loop;
    await until(() => workers.length === 2 && store.getState().runState === 'running', 'the new worker training');
    const w = workers[1];
    expect(w.calls).toEqual(['init auto', 'resume', 'start']);
    expect(decodeRunFile(w.resumedFrom!).ok).toBe(true);
    expect(w.updates).toBe(5);
    // The curve goes back to the checkpoint: the two updates after it are trained again.
    expect(store.getState().metrics.map((m) => m.update)).toEqual([0, 1, 2, 3, 4]);
    expect(store.getState().fault).toMatch(/crashed \(injected\).*resumed on webgl from update 5/);
    expect(store.getState().runState).toBe('running');
    // Commands work on the new worker while it trains.
    await a.pause();
    expect(store.getState().runState).toBe('paused');
    w.emit();
    await a.saveNow();
    expect(store.getState().recordingId).toBe(entry);
    expect((await (await lib).list()).map((r) => r.id)).toEqual([entry]);
    expect(saver.latest).not.toBeNull();
  });

  it('every update the views were handed is in the library when it is opened again (a reload), though the last save holds fewer', async () => {
    const { workers, a, session, lib, saver } = open();
    await until(() => store.getState().backend !== null, 'ready');
    void a.start();
    await until(() => store.getState().runState === 'running', 'running');
    // The first update shown makes the run's entry (its first save), before the views get it.
    workers[0].emit();
    await session.shown();
    expect(store.getState().metrics).toHaveLength(1);
    const entry = store.getState().recordingId;
    expect(entry).not.toBeNull();
    expect((await (await lib).summary(entry!))?.updates).toBe(1);
    for (let i = 0; i < 6; i++) workers[0].emit();
    await session.shown();
    await saver.settled();
    expect(store.getState().metrics).toHaveLength(7);
    // No save since the first: the file holds 1 update, the journal the 6 shown after it.
    expect((await (await lib).summary(entry!))?.updates).toBe(1);
    expect(await (await lib).journalRows(entry!)).toBe(6);
    const again = await RunLibrary.open(`session-test-${dbCount}`);
    expect((await again.list()).map((r) => [r.id, r.updates])).toEqual([[entry, 7]]);
    expect((await again.get(entry!))!.metrics.map((m) => m.update)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    again.close();
  });

  it('one tab trains at a time: while another trains this one says so and offers to take over; a tab taken over from pauses and saves', async () => {
    const lock = fakeLock();
    lock.other = true;
    const { workers, a, saver } = open({ lock });
    await until(() => store.getState().backend !== null, 'ready');
    await a.start();
    await a.step();
    expect(workers[0].calls).toEqual(['init auto']);
    expect(store.getState().elsewhere).toBe('training');
    // Taking over trains here.
    void a.takeOver();
    await until(() => store.getState().runState === 'running', 'training here');
    expect(store.getState().elsewhere).toBeNull();
    expect(lock.mine).toBe(true);
    workers[0].emit();
    await saver.settled();
    // The other tab takes it back: this one pauses, gives the lock up and saves its run.
    const save = vi.spyOn(saver, 'save');
    lock.steal();
    await until(() => store.getState().runState === 'paused', 'paused');
    expect(store.getState().elsewhere).toBe('taken');
    expect(workers[0].calls.slice(-1)).toEqual(['pause']);
    expect(save).toHaveBeenCalled();
    // Once the other tab pauses, Train here trains again and the notice goes.
    lock.other = false;
    void a.start();
    await until(() => store.getState().runState === 'running', 'training again');
    expect(store.getState().elsewhere).toBeNull();
    await a.pause();
    expect(lock.mine).toBe(false);
  });

  it('keeps the training lock through an idle report while it trains (a worker booting on its way to running); pause and reset let it go', async () => {
    const lock = fakeLock();
    const { workers, a } = open({ lock });
    await until(() => store.getState().backend !== null, 'ready');
    void a.start();
    await until(() => store.getState().runState === 'running', 'training');
    expect(lock.mine).toBe(true);
    workers[0].report('idle');
    expect(lock.mine).toBe(true);
    workers[0].report('running');
    await a.pause();
    expect(lock.mine).toBe(false);
    void a.start();
    await until(() => store.getState().runState === 'running', 'training again');
    expect(lock.mine).toBe(true);
    await a.reset();
    expect(lock.mine).toBe(false);
  });

  it('a worker that dies before anything was saved starts the run again, and says so', async () => {
    const { workers } = open();
    await until(() => store.getState().backend !== null, 'ready');
    workers[0].crash();
    await until(() => workers.length === 2 && store.getState().backend !== null, 'a new worker');
    expect(workers[1].calls).toEqual(['init auto']);
    expect(store.getState().fault).toMatch(/No checkpoint had been saved yet/);
  });

  it('a failed update (a lost device) restarts on the next backend and resumes there', async () => {
    const { workers, a } = open();
    await until(() => store.getState().backend !== null, 'ready');
    await a.step();
    await a.saveNow();
    workers[0].failNextStart = new Error('the GPU device was lost');
    await a.start();
    // The worker reports its loop stopped before the page hears why: training still goes on after the restart.
    await until(() => workers.length === 2 && workers[1].calls.includes('start'), 'training again');
    expect(workers[1].calls).toEqual(['init wasm', 'resume', 'start']);
    expect(store.getState().fault).toMatch(/^The trainer failed on webgl: the GPU device was lost\. Training resumed on wasm from update 1/);
  });

  it('a numeric fault in the loop is reported as it is, for the page to offer a lower learning rate; the worker is not restarted', async () => {
    const { workers, a } = open();
    await until(() => store.getState().backend !== null, 'ready');
    await a.step();
    const fault: TrainingFault = {
      kind: 'numeric',
      site: 'loss',
      update: 1,
      lr: 0.003,
      gradClip: 1,
      message: faultMessage('loss', 1, { lr: 0.003, gradClip: 1 }),
    };
    workers[0].faultNextStart = fault;
    await a.start();
    expect(store.getState().error).toBe(fault.message);
    expect(store.getState().stoppedBy).toEqual(fault);
    expect(store.getState().fault).toBeNull();
    expect(workers).toHaveLength(1);
    // Resumed on the same worker (after the page lowered the learning rate).
    void a.start();
    await until(() => store.getState().runState === 'running', 'training again');
    expect(workers).toHaveLength(1);
    // Training again, the notice and its fault are gone.
    expect(store.getState().stoppedBy).toBeNull();
    await a.pause();
  });

  it('a loop that stalls (no update for far longer than its slowest one) is restarted on the next backend', async () => {
    // Only the session's interval is faked: the fake IndexedDB runs on real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { workers, a, saver, advance } = open({ autosaveMs: 5000 });
    await vi.waitFor(() => expect(store.getState().backend).not.toBeNull());
    await a.step();
    await saver.settled();
    void a.start();
    await vi.waitFor(() => expect(store.getState().runState).toBe('running'));
    // Updates 2 s apart: quiet for 55 s is not yet a stall (under 60 s), quiet for 65 s is.
    advance(2000);
    workers[0].emit();
    advance(55_000);
    await vi.advanceTimersByTimeAsync(5000);
    expect(workers).toHaveLength(1);
    advance(10_000);
    await vi.advanceTimersByTimeAsync(5000);
    await vi.waitFor(() => expect(workers.length).toBe(2));
    await vi.waitFor(() => expect(workers[1].calls).toEqual(['init wasm', 'resume', 'start']));
    expect(store.getState().fault).toMatch(/^The trainer failed on webgl: no update for 65 s while training\. Training resumed on wasm from update \d/);
  });

  it('a backend that cannot start gives way to the next one, with a message', async () => {
    store.getState().setBackendChoice('webgl');
    FakeWorker.failingBackend = 'webgl';
    const { workers } = open();
    await until(() => workers.length === 2 && store.getState().backend !== null, 'the next backend');
    expect(workers[1].calls).toEqual(['init wasm']);
    expect(store.getState().backend?.backend).toBe('wasm');
    expect(store.getState().fault).toMatch(/^The trainer failed on webgl: it could not start \(no webgl here\)\..*starts again on wasm/);
  });

  it('faults that keep coming stop the restarts with a message', async () => {
    const { workers } = open();
    for (let i = 0; i < 4; i++) {
      await until(() => workers.length === i + 1 && store.getState().backend !== null, `worker ${i}`);
      workers[i].crash();
    }
    await until(() => /not restarted/.test(store.getState().fault ?? ''), 'the final message');
    expect(workers).toHaveLength(4);
    expect(store.getState().runState).toBe('idle');
  });

  it('saves every few seconds while training runs, and when the page is hidden or closed', async () => {
    vi.useFakeTimers();
    const { workers, a, page, saver } = open({ autosaveMs: 5000 });
    await vi.waitFor(() => expect(store.getState().backend).not.toBeNull());
    const save = vi.spyOn(saver, 'save');
    void a.start();
    await vi.waitFor(() => expect(store.getState().runState).toBe('running'));
    // The run's first update shown is its first save (it makes the run's library entry).
    workers[0].emit();
    await vi.waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    await vi.advanceTimersByTimeAsync(5000);
    expect(save).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(save).toHaveBeenCalledTimes(4);
    page.isHidden = false;
    page.fire('visibilitychange');
    expect(save).toHaveBeenCalledTimes(4);
    page.isHidden = true;
    page.fire('visibilitychange');
    page.fire('pagehide');
    expect(save).toHaveBeenCalledTimes(6);
  });

  /**
   * A run training on the fake clock whose saves each call `before` first (with the session's clock
   * to move), its first save made: `tick` moves the clock and the timer on by one autosave interval.
   */
  async function savingOnTicks(before: (advance: (ms: number) => void) => Promise<void> | void) {
    vi.useFakeTimers();
    const { workers, a, saver, advance } = open({ autosaveMs: 5000 });
    await vi.waitFor(() => expect(store.getState().backend).not.toBeNull());
    const real = saver.save.bind(saver);
    const save = vi.spyOn(saver, 'save').mockImplementation(async (api) => {
      await before(advance);
      return real(api);
    });
    void a.start();
    await vi.waitFor(() => expect(store.getState().runState).toBe('running'));
    workers[0].emit();
    await vi.waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const tick = async () => {
      advance(5000);
      await vi.advanceTimersByTimeAsync(5000);
    };
    return { a, save, tick };
  }

  it('spaces periodic saves out once one takes long, to keep them under a twentieth of the time', async () => {
    // Each save takes `saveMs` of the session's clock (a long run's recording encoded in the worker).
    let saveMs = 1000;
    const { a, save, tick } = await savingOnTicks((advance) => advance(saveMs));
    await tick();
    expect(save).toHaveBeenCalledTimes(2);
    // That save took 1 s: the next is due 20 s after it began, not at the next three ticks.
    await tick();
    await tick();
    await tick();
    expect(save).toHaveBeenCalledTimes(2);
    saveMs = 0;
    await tick();
    expect(save).toHaveBeenCalledTimes(3);
    // A quick save again: every tick saves.
    await tick();
    expect(save).toHaveBeenCalledTimes(4);
    await a.pause();
    expect(save).toHaveBeenCalledTimes(5);
  });

  it('starts no periodic save while the last one is still on its way', async () => {
    const held: (() => void)[] = [];
    let hold = false;
    const { save, tick } = await savingOnTicks(async () => {
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
    });
    // A save that does not come back (a long run's recording, a slow library): the ticks after it wait.
    hold = true;
    await tick();
    expect(save).toHaveBeenCalledTimes(2);
    await tick();
    await tick();
    expect(save).toHaveBeenCalledTimes(2);
    // It comes back after 10 s, a third of the time since it began: the next is due 200 s after it began.
    hold = false;
    held.forEach((resolve) => resolve());
    await vi.advanceTimersByTimeAsync(0);
    await tick();
    expect(save).toHaveBeenCalledTimes(2);
  });

  it('a full library keeps the run in memory, says so, and stores it once there is room', async () => {
    const { a, saver, lib } = open();
    await until(() => store.getState().backend !== null, 'ready');
    const put = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    await a.step();
    await saver.settled();
    expect(store.getState().libraryMessage?.text).toMatch(/^The library is full: .*kept in memory/);
    expect(saver.unsaved).not.toBeNull();
    expect(await (await lib).list()).toEqual([]);
    expect((await a.currentRecording())?.facts.updates).toBe(1);
    put.mockRestore();
    await a.step();
    await saver.settled();
    expect((await (await lib).list()).map((r) => r.updates)).toEqual([2]);
    expect(saver.unsaved).toBeNull();
  });

  it('resumes a stored run (after a reload) into its own library entry', async () => {
    const { workers, a, lib } = open();
    await until(() => store.getState().backend !== null, 'ready');
    const id = await (await lib).save({ ...fakeRun(6), name: 'before the reload' });
    await a.resumeStored(id);
    expect(workers[0].calls).toContain('resume');
    expect(store.getState().metrics).toHaveLength(6);
    expect(store.getState().recordingId).toBe(id);
    await a.step();
    await a.saveNow();
    const list = await (await lib).list();
    expect(list.map((r) => [r.id, r.updates])).toEqual([[id, 7]]);
  });

  it('a stored run whose shown updates go past its last checkpoint resumes from the checkpoint and says so', async () => {
    const { a, lib } = open();
    await until(() => store.getState().backend !== null, 'ready');
    const run = { ...fakeRun(4), name: 'cut short' };
    expect(run.checkpoints.items.at(-1)?.updates).toBe(4);
    const id = await (await lib).save({ ...run, metrics: fakeRun(6).metrics });
    await a.resumeStored(id);
    expect(store.getState().metrics).toHaveLength(4);
    expect(store.getState().libraryMessage).toEqual({
      kind: 'info',
      text: "Training resumed from update 4, the run's last checkpoint: the 2 updates shown after it (kept in the library) are trained again.",
    });
  });

  it('reads the stored run through its codec (the page: the run-file worker), and a failed read changes nothing', async () => {
    const opened: number[] = [];
    const codec: RunCodec = {
      open: async (bytes) => (opened.push(bytes.length), { ok: false, error: 'unreadable here' }),
      rename: directCodec.rename,
    };
    const { workers, a, lib } = open({ codec });
    await until(() => store.getState().backend !== null, 'ready');
    const id = await (await lib).save({ ...fakeRun(6), name: 'before the reload' });
    await a.resumeStored(id);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toBeGreaterThan(0);
    expect(store.getState().error).toBe('The saved run could not be read: unreadable here.');
    expect(workers[0].calls).not.toContain('resume');
    expect(store.getState().metrics).toHaveLength(0);
  });

  it('races the replayed swarm during a replay, and the trained one otherwise', async () => {
    const { workers, a } = open();
    await until(() => store.getState().backend !== null, 'ready');
    const run = { ...fakeRun(10), name: 'replayed run' };
    store.getState().enterReplay(run, null);
    const r = await a.race({ threshold: 0.9, tasks: 2, agentCounts: [1] });
    expect(r.swarm).toBe('replayed run');
    expect(workers[0].raced).toMatchObject({ name: 'replayed run', updates: 10 });
    a.leaveReplay();
    expect((await a.race({ threshold: 0.9, tasks: 2, agentCounts: [1] })).swarm).toBeUndefined();
    expect(workers[0].raced).toBeUndefined();
  });
});

describe('replaySwarm', () => {
  it('takes the newest checkpoint at or before the replayed update', () => {
    const run = fakeRun(120);
    expect(run.checkpoints.items.map((c) => c.updates)).toEqual([50, 100, 120]);
    expect(replaySwarm(run, 119).updates).toBe(120);
    expect(replaySwarm(run, 60).updates).toBe(50);
    expect(replaySwarm(run, 3).updates).toBe(50);
  });

  it('refuses a run without weights', () => {
    const run = fakeRun(3);
    expect(() => replaySwarm({ ...run, checkpoints: { ...run.checkpoints, items: [] } }, 0)).toThrow(/no policy weights/);
  });
});

describe('nextBackend', () => {
  it('falls through the order of preference and stays on the last', () => {
    expect(nextBackend('webgpu')).toBe('webgl');
    expect(nextBackend('wasm')).toBe('cpu');
    expect(nextBackend('cpu')).toBe('cpu');
    expect(nextBackend(null)).toBe('wasm');
  });
});

describe('beforeNextFrame', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('runs at once where there are no frames', () => {
    let ran = 0;
    beforeNextFrame(() => ran++);
    expect(ran).toBe(1);
  });

  it('runs once, at the next frame, or after the fallback delay when no frame comes (a hidden page)', () => {
    vi.useFakeTimers();
    const frames: (() => void)[] = [];
    vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    let ran = 0;
    beforeNextFrame(() => ran++);
    expect(ran).toBe(0);
    frames.shift()!();
    expect(ran).toBe(1);
    vi.advanceTimersByTime(FRAME_FALLBACK_MS);
    expect(ran).toBe(1);
    // No frame at all.
    beforeNextFrame(() => ran++);
    vi.advanceTimersByTime(FRAME_FALLBACK_MS - 1);
    expect(ran).toBe(1);
    vi.advanceTimersByTime(1);
    expect(ran).toBe(2);
    frames.shift()!();
    expect(ran).toBe(2);
    // Cancelled, it runs neither at the frame nor after the fallback.
    const cancel = beforeNextFrame(() => ran++, 10);
    cancel();
    vi.advanceTimersByTime(10);
    expect(ran).toBe(2);
  });
});
