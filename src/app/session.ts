import * as Comlink from 'comlink';
import type { RunFile } from '../core/runFormat';
import { trainableCheckpoint } from '../core/runChecks';
import { rebuildsTrainer, type Config } from '../rl/config';
import { checkSettings, settingLabel } from '../rl/settingsCheck';
import { raceHorizon } from '../sim/race';
import { WorkerFaultError, type TrainerClient } from '../worker/client';
import {
  BACKENDS,
  type ThreadRequest,
  type BackendChoice,
  type BackendName,
  type RaceRequest,
  type RaceSwarm,
  type RunState,
  type TalkReport,
  type TrainingFault,
  type UpdateMessage,
} from '../worker/protocol';
import { directCodec, type RunCodec } from '../worker/runCodec';
import type { RunId } from '../store/runDatabase';
import type { RecordingSaver } from './recordingSaver';
import { soleTab, type TrainingLock } from './trainingLock';
import { replayAt, recordedReferences } from '../store/replay';
import type { AppStore, SessionActions } from '../store/store';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** While training runs, the recording is saved this often (a crash or a closed tab loses at most this much). */
export const AUTOSAVE_MS = 5_000;

/**
 * The longest share of the time a periodic save may take: a save encodes the whole recording in the
 * worker between two updates (about 0.1 s at update 50 of the default run, 0.8 s at update 450 in
 * Node), so a long run's saves are spaced out to at most this share (every 5 s while one takes up to
 * 0.25 s, every 20 s once one takes 1 s), and none starts while the last is still on its way.
 * Pausing, hiding and closing the page still save at once.
 */
export const AUTOSAVE_SHARE = 0.05;

/** More worker faults than this within FAULT_WINDOW_MS stop the automatic restarts (something is wrong every time). */
export const MAX_RESTARTS = 3;
export const FAULT_WINDOW_MS = 60_000;

/**
 * A running loop that sends no update for this long, and for STALL_FACTOR times its slowest update
 * so far, has stalled (e.g. a GPU device lost without an error: the worker still answers pings).
 */
export const STALL_MS = 60_000;
export const STALL_FACTOR = 10;

/**
 * While training streams, the views take in new updates at most this often (a frame at least this
 * long after the last). A small run trains 40-50 updates a second; redrawing every chart for each
 * one kept the page's main thread busy most of every frame, and 10 redraws a second read as live.
 */
export const VIEW_REFRESH_MS = 100;

/** A page that draws no frames (hidden) still gets its updates within this long. */
export const FRAME_FALLBACK_MS = 250;

/**
 * Runs `f` once, before the page's next frame (or after `fallbackMs` if no frame comes, as in a
 * hidden page); at once where there are no frames (tests, Node). Returns a cancel.
 */
export function beforeNextFrame(f: () => void, fallbackMs = FRAME_FALLBACK_MS): () => void {
  if (typeof requestAnimationFrame !== 'function') {
    f();
    return () => undefined;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    f();
  };
  const frame = requestAnimationFrame(once);
  const timer = setTimeout(once, fallbackMs);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** Where the page's events come from (the document and window, or fakes in tests). */
export interface PageEvents {
  addEventListener(type: string, f: () => void): void;
  removeEventListener(type: string, f: () => void): void;
  /** Whether the page is hidden now (`document.visibilityState`). */
  hidden(): boolean;
}

/** What a session is built from: how to start a worker, where recordings go, and the page's events. */
export interface SessionDeps {
  /** The store the session reads and fills (the page's, or a fresh one in tests). */
  store: AppStore;
  createClient: () => TrainerClient;
  saver: RecordingSaver;
  /** Re-reads the library's list into the store. */
  refreshRuns: () => Promise<void>;
  /** The encoded file of a stored run (to resume it after a reload). */
  storedRun?: (id: RunId) => Promise<Uint8Array | null>;
  /** Where a stored run is read to resume it (the page: the run-file worker; default: this thread). */
  codec?: RunCodec;
  page?: PageEvents;
  autosaveMs?: number;
  now?: () => number;
  /** Threads for the wasm backend (`?threads=` of the page's address; default: chosen by measuring). */
  threads?: ThreadRequest;
  /** When the updates that arrived are handed to the views (default: `beforeNextFrame`); must not run `f` at once while `viewRefreshMs` > 0. */
  nextFrame?: (f: () => void) => void;
  /** The least time between two hand-overs of updates to the views (default VIEW_REFRESH_MS). */
  viewRefreshMs?: number;
  /** Which tab may train (the page: a Web Lock shared by its tabs; default: this one always). */
  lock?: TrainingLock;
}

/**
 * The training session, free of React: owns the training worker (starts, restarts after a fault,
 * resumes from the last checkpoint), streams its updates into the store, saves the recording every
 * few seconds and when the page hides, and turns the user's commands into worker calls. Views read
 * the store and call `actions` (installed in the store by `install`).
 */
export class TrainingSession {
  private client: TrainerClient | null = null;
  /** Resolves when the current worker has its trainer (commands clicked before that wait for it). */
  private ready: Promise<void> = Promise.resolve();
  /** Updates not in the store yet: waiting for the next frame, or for the views to follow again (replay, live views off). */
  private held: UpdateMessage[] = [];
  /** Whether a frame is due to hand the held updates to the views. */
  private frameDue = false;
  /** When held updates were last handed to the views by a frame (`now()`). */
  private lastFlush = -Infinity;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** When the last periodic save began (`now()`), how long the last one took to come back stored, and whether one is still on its way. */
  private autosavedAt = -Infinity;
  private autosaveMs = 0;
  private autosaving = false;
  /** The hand-overs of updates to the views, one after another (each waits for the library to keep them). */
  private showing: Promise<void> = Promise.resolve();
  private readonly faultTimes: number[] = [];
  /** Runs begun so far (bumped whenever the views forget the live run). */
  private runs = 0;
  /** When the current worker last sent an update or started running, and the longest gap between updates seen. */
  private lastProgress = 0;
  private slowest = 0;
  /** The backend the current worker was asked for. */
  private requested: BackendChoice = 'auto';
  private readonly deps: SessionDeps;
  private readonly store: AppStore;
  private readonly now: () => number;
  private readonly lock: TrainingLock;
  private readonly onHide = () => {
    if (this.deps.page?.hidden() ?? true) void this.save();
  };
  private readonly onPageHide = () => void this.save();

  constructor(deps: SessionDeps) {
    this.deps = deps;
    this.store = deps.store;
    this.now = deps.now ?? Date.now;
    this.lock = deps.lock ?? soleTab();
    this.lock.onLost(() => {
      // Another tab took training over: this one pauses, and the pause saves its run.
      this.store.getState().setElsewhere('taken');
      void this.command((c) => c.api.pause());
    });
  }

  /** Takes the training lock before updates run; false, with the reason on screen, when another tab trains. */
  private async claim(): Promise<boolean> {
    const mine = await this.lock.acquire();
    this.store.getState().setElsewhere(mine ? null : 'training');
    return mine;
  }

  /** The views forget the live run (a new one begins); a settings change the worker applies to the old one is not noted. */
  private clearRun(): void {
    this.runs++;
    this.store.getState().clearRun();
  }

  /** Starts the worker on the chosen backend, the autosave timer and the page listeners. */
  open(): void {
    this.boot(this.store.getState().backendChoice, { fresh: true });
    void this.deps.refreshRuns();
    this.timer = setInterval(() => {
      if (this.store.getState().runState !== 'running') return;
      if (this.autosaveDue()) void this.autosave();
      this.checkStall();
    }, this.deps.autosaveMs ?? AUTOSAVE_MS);
    this.deps.page?.addEventListener('visibilitychange', this.onHide);
    this.deps.page?.addEventListener('pagehide', this.onPageHide);
  }

  /** Stops everything (the worker included); the store keeps what it shows. */
  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.deps.page?.removeEventListener('visibilitychange', this.onHide);
    this.deps.page?.removeEventListener('pagehide', this.onPageHide);
    this.client?.terminate();
    this.client = null;
    this.lock.release();
  }

  /** The current worker client (tests and the fault hooks use it). */
  get current(): TrainerClient | null {
    return this.client;
  }

  /** Saves the recording of the current run now (when recording is on). */
  save(): Promise<void> {
    return this.deps.saver.save(this.client?.api ?? null);
  }

  /**
   * Whether the timer's tick should save: not while the last periodic save is still on its way, nor
   * while it would take over `AUTOSAVE_SHARE` of the time since it began.
   */
  private autosaveDue(): boolean {
    return !this.autosaving && this.now() - this.autosavedAt >= this.autosaveMs / AUTOSAVE_SHARE;
  }

  private async autosave(): Promise<void> {
    const began = this.now();
    this.autosavedAt = began;
    this.autosaving = true;
    try {
      await this.save();
    } finally {
      this.autosaving = false;
      this.autosaveMs = this.now() - began;
    }
  }

  /** A running loop that has sent nothing for far longer than its slowest update counts as a backend fault. */
  private checkStall(): void {
    const c = this.client;
    const quiet = this.now() - this.lastProgress;
    if (!c || quiet <= Math.max(STALL_MS, STALL_FACTOR * this.slowest)) return;
    void this.recover(c, new Error(`no update for ${Math.round(quiet / 1000)} s while training`), 'backend', true);
  }

  private flushBeforeNextFrame(): void {
    if (this.frameDue) return;
    this.frameDue = true;
    const nextFrame = this.deps.nextFrame ?? ((f: () => void) => void beforeNextFrame(f));
    const frame = () => {
      // Too soon after the last hand-over: wait for a later frame.
      if (this.now() - this.lastFlush < (this.deps.viewRefreshMs ?? VIEW_REFRESH_MS)) return nextFrame(frame);
      this.frameDue = false;
      if (!this.store.getState().live || this.held.length === 0) return;
      this.lastFlush = this.now();
      this.flush();
    };
    nextFrame(frame);
  }

  /**
   * Hands the held updates to the views once the library keeps them (`saver.keep`: their metrics in
   * its journal, or the run's first save), so every update the curve shows survives a reload, even
   * one that cuts the next save short. The hand-overs stay in order; those of a run the views have
   * forgotten meanwhile are dropped.
   */
  private flush(): void {
    if (this.store.getState().replay || this.held.length === 0) return;
    const us = this.held;
    this.held = [];
    const run = this.runs;
    const api = this.client?.api ?? null;
    this.showing = this.showing
      .then(() =>
        this.deps.saver.keep(
          api,
          us.map((u) => u.metrics),
        ),
      )
      .then(() => {
        if (run !== this.runs) return;
        // A replay opened meanwhile: they wait for the views to follow again.
        if (this.store.getState().replay) this.held = us.concat(this.held);
        else this.store.getState().pushUpdates(us);
      });
  }

  /** Resolves when the updates handed over so far are in the store (tests). */
  shown(): Promise<void> {
    return this.showing;
  }

  /**
   * A new worker on `backend`. `fresh`: a new run (the old worker's recording is saved first and
   * the views cleared); otherwise the run goes on from `resume`, the newest encoding of it, into the
   * same library entry (after a fault).
   */
  private boot(backend: BackendChoice, how: { fresh: true } | { fresh: false; resume: Uint8Array | null; run: boolean; note: string }): Promise<void> {
    const old = this.client;
    if (old) {
      if (how.fresh) void this.deps.saver.save(old.api).finally(() => old.terminate());
      else old.terminate();
    }
    const c = this.deps.createClient();
    this.client = c;
    this.requested = backend;
    this.lastProgress = this.now();
    this.slowest = 0;
    const store = this.store.getState();
    store.setBackend(null);
    store.setRunState('idle');
    if (how.fresh) {
      this.held = [];
      store.leaveReplay();
      this.clearRun();
      this.deps.saver.begin();
    }
    void c.faulted.then((f) => this.recover(c, new WorkerFaultError(f), 'worker'));
    const ready = c.api
      .subscribe(
        Comlink.proxy((u: UpdateMessage) => this.onUpdate(c, u)),
        Comlink.proxy((s: RunState) => this.onState(c, s)),
        // Talk is measured rarely and shown at once (the live run's figure, whatever is on screen).
        Comlink.proxy((t: TalkReport) => {
          if (this.client === c) this.store.getState().pushTalk(t);
        }),
      )
      .then(() => c.api.setRecording(this.store.getState().recording))
      .then(() => c.api.init(this.store.getState().config, backend, this.deps.threads ?? 'auto'))
      .then(async (report) => {
        if (this.client !== c) return;
        this.store.getState().setBackend(report);
        if (how.fresh) return;
        let text = how.note;
        if (how.resume) {
          const r = await c.api.resume(how.resume);
          // The old worker's last updates reach the views first, then the views go back to the checkpoint.
          await this.showing;
          const s = this.store.getState();
          s.setConfig(r.config);
          this.store.setState({ metrics: s.metrics.filter((m) => m.update < r.updates), last: s.last && s.last.metrics.update < r.updates ? s.last : null });
          this.held = this.held.filter((u) => u.metrics.update < r.updates);
          text += ` Training resumed on ${report.backend} from update ${r.updates}, its last checkpoint.`;
        } else {
          this.held = [];
          this.clearRun();
          this.deps.saver.begin();
          text += ` No checkpoint had been saved yet, so training starts again on ${report.backend}.`;
        }
        this.store.getState().setFault(text);
        // Not awaited: `start` answers when the loop ends, and commands wait for `ready`.
        if (how.run)
          void this.claim().then((mine) => {
            if (mine) void this.commandOn(c, () => c.api.start());
          });
      });
    this.ready = ready.catch(() => undefined);
    ready.catch((e: unknown) => {
      if (this.client !== c || e instanceof WorkerFaultError) return;
      // No backend would start, or resuming failed: try the next backend (the restarts are bounded).
      void this.recover(c, new Error(`it could not start (${message(e)})`), 'backend', !how.fresh && how.run);
    });
    return this.ready;
  }

  private onUpdate(c: TrainerClient, u: UpdateMessage): void {
    if (this.client !== c) return;
    const t = this.now();
    this.slowest = Math.max(this.slowest, t - this.lastProgress);
    this.lastProgress = t;
    const s = this.store.getState();
    // Live, the updates that arrive before a frame are drawn together in it: however many the
    // trainer sends while the page is busy, the views redraw once a frame. Replaying a recorded
    // run, or with live views off, they wait until the views are back.
    this.held.push(u);
    if (s.live && !s.replay) this.flushBeforeNextFrame();
    // A single step is kept at once; a running loop is saved every few seconds and when it stops.
    if (s.runState !== 'running') void this.deps.saver.save(c.api);
  }

  private onState(c: TrainerClient, state: RunState): void {
    if (this.client !== c) return;
    if (state === 'running') this.lastProgress = this.now();
    if (state !== 'running') this.flush();
    const s = this.store.getState();
    s.setRunState(state);
    // Paused or done: another tab may train. Not on 'idle': a worker that boots or restarts (a
    // Train pressed before the first worker was ready, a resume after a fault) says idle on its way
    // to running, and letting the lock go then left a training tab without it. Reset lets it go.
    if (state === 'paused' || state === 'finished') this.lock.release();
    // Training again: a notice of an earlier failure no longer holds.
    if (state === 'running' && s.error) s.setError(null);
    // A pause or the end of the run is a natural moment to keep what was recorded.
    if (state === 'paused' || state === 'finished') void this.deps.saver.save(c.api);
  }

  /**
   * The worker `c` faulted (it crashed, closed or hung: `worker`), or an update failed in it
   * (`backend`: e.g. a lost GPU device). Restarts it, on the next backend when the backend failed or
   * the faults repeat, and resumes from the newest saved encoding of the run. Too many faults in a
   * row stop the restarts with a message.
   */
  private async recover(c: TrainerClient, error: Error, kind: 'worker' | 'backend', running?: boolean): Promise<void> {
    if (this.client !== c) return;
    const s = this.store.getState();
    const wasRunning = running ?? s.runState === 'running';
    const t = this.now();
    this.faultTimes.push(t);
    while (this.faultTimes.length && t - this.faultTimes[0] > FAULT_WINDOW_MS) this.faultTimes.shift();
    if (this.faultTimes.length > MAX_RESTARTS) {
      c.terminate();
      this.client = null;
      s.setRunState('idle');
      s.setFault(
        `${message(error)} The trainer failed ${this.faultTimes.length} times in a minute, so it was not restarted. Choose another backend to start it again; the run so far is kept in the library.`,
      );
      return;
    }
    // Wait for saves in flight: they may carry a newer checkpoint than the one in hand.
    await this.deps.saver.settled();
    const current = s.backend?.backend ?? (this.requested === 'auto' ? null : this.requested);
    const repeated = this.faultTimes.length > 1;
    const backend: BackendChoice = kind === 'backend' || repeated ? nextBackend(current) : s.backendChoice;
    const note = kind === 'backend' ? `The trainer failed${current ? ` on ${current}` : ''}: ${message(error)}.` : message(error);
    await this.boot(backend, { fresh: false, resume: this.deps.saver.latest, run: wasRunning, note });
  }

  /**
   * True, with the reason on screen, when the settings cannot train (e.g. one update would need more
   * memory than a tab has): a refusal, not a fault, so the worker is neither asked nor restarted.
   */
  private refused(): boolean {
    const { errors } = checkSettings(this.store.getState().config, settingLabel);
    if (errors.length === 0) return false;
    this.store.getState().setError(errors.join(' '));
    return true;
  }

  /**
   * Runs a worker command once the worker is ready (a click before that waits, it is not refused);
   * a failure becomes the page's error. `updates`: the command runs updates (start or step), so its
   * failure is an update that failed in the worker (a lost device, or the like) and restarts it.
   */
  private async command(f: (c: TrainerClient) => Promise<TrainingFault | null | void>, updates: 'start' | 'step' | null = null): Promise<void> {
    await this.ready;
    const c = this.client;
    if (c) await this.commandOn(c, () => f(c), updates);
  }

  private async commandOn(c: TrainerClient, f: () => Promise<TrainingFault | null | void>, updates: 'start' | 'step' | null = 'start'): Promise<void> {
    try {
      const fault = await f();
      // A fault the trainer stopped for is no failure of the worker: its trainer is back at the last
      // good weights and waits for a change of settings (the page offers one), so it is reported, not restarted.
      if (fault && this.client === c) this.store.getState().setError(fault.message, fault);
    } catch (e) {
      if (this.client !== c || e instanceof WorkerFaultError) return;
      // A failed loop goes on training after the restart; a failed single step does not.
      if (updates && e instanceof Error) void this.recover(c, e, 'backend', updates === 'start');
      else this.store.getState().setError(message(e));
    }
  }

  /** The actions the views call (installed in the store). */
  readonly actions: SessionActions = {
    start: async () => {
      if (this.refused() || !(await this.claim())) return;
      return this.command((c) => c.api.start(), 'start');
    },
    pause: () => this.command((c) => c.api.pause()),
    step: async () => {
      if (this.refused() || !(await this.claim())) return;
      await this.command(async (c) => {
        const fault = await c.api.step();
        if (!fault && this.store.getState().error) this.store.getState().setError(null);
        return fault;
      }, 'step');
      if (this.store.getState().runState !== 'running') this.lock.release();
    },
    takeOver: async () => {
      await this.lock.takeOver();
      this.store.getState().setElsewhere(null);
      return this.actions.start();
    },
    reset: () => {
      this.held = [];
      const s = this.store.getState();
      s.leaveReplay();
      this.clearRun();
      void this.save();
      this.deps.saver.begin();
      this.lock.release();
      return this.command((c) => c.api.reset(this.store.getState().config));
    },
    replay: (open) => {
      void this.command((c) => c.api.pause());
      return open();
    },
    leaveReplay: () => {
      this.store.getState().leaveReplay();
      this.flush();
    },
    setRecording: (on) => {
      this.store.getState().setRecording(on);
      return this.command((c) => c.api.setRecording(on));
    },
    saveNow: () => this.save(),
    currentRecording: async () => {
      const saver = this.deps.saver;
      if (saver.unsaved) return saver.unsaved;
      return this.client ? this.client.api.recording() : null;
    },
    continueFrom: (run) => {
      // The weights are checked before anything changes: weights that cannot be trained on change nothing.
      const checked = trainableCheckpoint(run);
      if (!checked.ok) {
        this.store.getState().setError(checked.error);
        return Promise.resolve();
      }
      const s = this.store.getState();
      const previous = s.config;
      s.leaveReplay();
      void this.save();
      this.deps.saver.begin();
      this.held = [];
      // The imitation prior, if the run had one, is behind these weights already (checked.config has prior 0).
      s.setConfig(checked.config);
      this.clearRun();
      const config = this.store.getState().config;
      // The worker reads the weights before it drops its trainer; if it refuses them, the settings go back.
      return this.command((c) => c.api.resetWith(config, checked.checkpoint.weights)).catch((e: unknown) => {
        this.store.getState().setConfig(previous);
        this.store.getState().setError(`This run cannot be trained on: ${e instanceof Error ? e.message : String(e)}. The run before it is still loaded.`);
      });
    },
    resumeStored: async (id) => {
      const bytes = await this.deps.storedRun?.(id);
      // The codec may take its bytes over (a worker): it reads a copy, the trainer gets the original.
      const decoded = bytes ? await (this.deps.codec ?? directCodec).open(bytes.slice()) : null;
      if (!bytes || !decoded?.ok) {
        this.store.getState().setError(`The saved run could not be read${decoded && !decoded.ok ? `: ${decoded.error}` : ''}.`);
        return;
      }
      const run = decoded.run;
      const s = this.store.getState();
      s.leaveReplay();
      void this.save();
      this.deps.saver.begin();
      this.held = [];
      this.clearRun();
      await this.command(async (c) => {
        const r = await c.api.resume(bytes);
        this.store.getState().setConfig(r.config);
        showRun(this.store, run, r.updates);
        this.deps.saver.adopt(id, bytes);
        const shown = (run.metrics.at(-1)?.update ?? -1) + 1;
        const again = shown - r.updates;
        this.store.getState().setLibrary({
          libraryMessage: {
            kind: 'info',
            text: `Training resumed from update ${r.updates}, the run's last checkpoint${again > 0 ? `: the ${again} update${again === 1 ? '' : 's'} shown after it (kept in the library) are trained again` : ''}.`,
          },
        });
      });
    },
    configure: (patch) => {
      const before = this.store.getState().config;
      this.store.getState().setConfig(patch);
      const after = this.store.getState().config;
      // A structural change is a new run: the old one's recording is saved before the worker drops it.
      if (rebuildsTrainer(before, after)) {
        this.held = [];
        this.store.getState().leaveReplay();
        this.clearRun();
        void this.save();
        this.deps.saver.begin();
        return this.command((c) => c.api.reset(after));
      }
      const run = this.runs;
      return this.command(async (c) => {
        const applied = await c.api.setConfig(after);
        // The worker says where the change took effect; a run begun meanwhile is another run.
        if (this.client !== c || run !== this.runs || applied.rebuilt) return;
        this.store.getState().noteConfigChange(before, after, applied.update);
      });
    },
    setLive: (live) => {
      this.store.getState().setLive(live);
      if (live) this.flush();
    },
    chooseBackend: (b) => {
      this.store.getState().setBackendChoice(b);
      this.store.getState().setFault(null);
      this.faultTimes.length = 0;
      return this.boot(b, { fresh: true });
    },
    race: async (request) => {
      await this.ready;
      const c = this.client;
      if (!c) throw new Error('the trainer is not running');
      const replay = this.store.getState().replay;
      const swarm = replay ? replaySwarm(replay.run, replay.index) : undefined;
      return c.api.race(withHorizon(request, swarm?.config ?? this.store.getState().config), swarm);
    },
  };
}

/** The store shows `run` as the live run's history (after a resume), up to update `updates`. */
function showRun(store: AppStore, run: RunFile, updates: number): void {
  const metrics = run.metrics.filter((m) => m.update < updates);
  const at = metrics.length ? replayAt({ ...run, metrics }, metrics.length - 1) : null;
  store.setState({ metrics, references: recordedReferences(run), last: at?.last ?? null, episode: at?.episode ?? null, tick: 0 });
}

/** The race request with the horizon (`raceHorizon`) of the final deadline of the swarm that races. */
function withHorizon(request: Omit<RaceRequest, 'horizon'> & { horizon?: number }, config: Config): RaceRequest {
  return { ...request, horizon: request.horizon ?? raceHorizon(config.tmaxEnd) };
}

/**
 * The replayed run's swarm at replay position `index`: the weights of its newest checkpoint at or
 * before that update (the first one when none is that early). Throws when the run holds no weights.
 */
export function replaySwarm(run: RunFile, index: number): RaceSwarm {
  const items = run.checkpoints.items;
  if (!items.length) throw new Error('this recorded run holds no policy weights, so its swarm cannot race');
  const update = (run.metrics[Math.min(index, run.metrics.length - 1)]?.update ?? 0) + 1;
  const cp = [...items].reverse().find((c) => c.updates <= update) ?? items[0];
  return {
    name: run.name,
    config: run.configChanges.filter((c) => c.update <= cp.updates).at(-1)?.config ?? run.config,
    updates: cp.updates,
    weights: cp.weights,
  };
}

/** The backend after `b` in the order of preference (the last one stays); wasm, which runs everywhere, when unknown. */
export function nextBackend(b: BackendName | null): BackendChoice {
  if (!b) return 'wasm';
  const i = BACKENDS.indexOf(b);
  return BACKENDS[Math.min(BACKENDS.length - 1, i + 1)];
}
