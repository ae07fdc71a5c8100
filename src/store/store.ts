import { create, createStore, type StateCreator, type StoreApi } from 'zustand';
import type { References } from '../rl/compare';
import type { Config } from '../rl/config';
import type { UpdateMetrics } from '../rl/metrics';
import type { BackendChoice, BackendReport, EncodedRun, RaceReport, RaceRequest, RunState, TalkReport, TrainingFault, UpdateMessage } from '../worker/protocol';
import type { RunFile, TalkRecord } from '../core/runFormat';
import { withConfigChange } from '../core/recorder';
import { episodeLength } from './playback';
import type { DeletedRun, RunId, RunSummary } from './runDatabase';
import { metricsIndex, nextEpisode, recordedReferences, replayAt } from './replay';
import { withTalk } from './talkHistory';
import { configFromHash, hashFromConfig } from './urlConfig';
import type { ViewSettings } from './view';

/** Simulated minutes per second the episode views start at (a 24-minute sprint in six seconds). */
export const INITIAL_SPEED = 4;

/** The run's settings, kept in the URL hash (`keepHash`) so a copied link reproduces it. */
export interface ConfigSlice {
  config: Config;
  /** Messages about settings that were clamped or dropped (from the URL or an extreme input). */
  notices: string[];
  setConfig: (patch: Partial<Config>) => void;
  dismissNotices: () => void;
}

/** What the training worker reported. */
export interface RunSlice {
  runState: RunState;
  backendChoice: BackendChoice;
  backend: BackendReport | null;
  /** One entry per update, oldest first. */
  metrics: UpdateMetrics[];
  /** Reference organisations' returns by deadline (minutes), as the worker reported them. */
  references: Record<number, References>;
  last: UpdateMessage | null;
  /**
   * What the live run's talk was worth, measured by the worker now and then (oldest first). It is
   * the live run's even during a replay, which shows its recording's own measurements.
   */
  talk: TalkReport[];
  /** Adds a measurement (one at fewer updates than the newest starts the history of a new run). */
  pushTalk: (t: TalkReport) => void;
  /** What went wrong with the last command, in words (shown on the page). */
  error: string | null;
  /** The fault the trainer stopped training for, when `error` says that (the page offers the way on); else null. */
  stoppedBy: TrainingFault | null;
  setBackendChoice: (b: BackendChoice) => void;
  setBackend: (b: BackendReport | null) => void;
  setRunState: (s: RunState) => void;
  /** Appends updates (those that arrived since the last frame, or while the views were not live), keeping the last as `last`. */
  pushUpdates: (us: UpdateMessage[]) => void;
  /** Whether the views follow every update; off trains at full speed and catches up on pause. */
  live: boolean;
  setLive: (live: boolean) => void;
  clearRun: () => void;
  /** Shows `e` (null: nothing wrong), and the trainer's fault when `e` is its message. */
  setError: (e: string | null, fault?: TrainingFault) => void;
}

/** Which agent the user picked (highlighted in every view). */
export interface SelectionSlice {
  selectedAgent: number | null;
  selectAgent: (a: number | null) => void;
}

/**
 * Which showcase episode the episode views show, and how far into it: the swimlanes, board, DM
 * graph, module bars and countdown all show the minutes before `tick` of `episode`.
 */
export interface PlaybackSlice {
  /** The episode on screen; held while it plays, so new updates do not cut it off. */
  episode: UpdateMessage | null;
  /** Minutes of the episode shown (0 to its length). */
  tick: number;
  /** Playing: the clock runs and the next episode follows the end. Paused: the view holds still. */
  playing: boolean;
  /** Simulated minutes per second; 0 shows each episode whole. */
  speed: number;
  /** Puts an episode on screen, from its start (or whole, at speed 0). */
  showEpisode: (episode: UpdateMessage | null, tick: number) => void;
  setTick: (tick: number) => void;
  setPlaying: (playing: boolean) => void;
  setSpeed: (speed: number) => void;
}

/** The run library (IndexedDB) as the page shows it, and the recording of the current run. */
/** How far a run-file job in a worker got: what it reads (`name`), its stage in words, the share of it done (0 to 1). */
export interface JobProgress {
  name: string;
  stage: string;
  done: number;
}

export interface LibrarySlice {
  /** Summaries of the stored runs, newest first; null until the library has been read. */
  runs: RunSummary[] | null;
  /** The latest outcome of a library action, shown as text (never as markup). */
  libraryMessage: { kind: 'error' | 'info'; text: string } | null;
  /** The last deleted run, while its undo is offered. */
  undo: DeletedRun | null;
  /** Whether the current training run is recorded (on by default). */
  recording: boolean;
  /** Library id of the run being recorded, once it has been saved. */
  recordingId: RunId | null;
  /** When the recording was last saved (ms since the epoch). */
  savedAt: number | null;
  /** The run file being imported (read in a worker), with its stage and the share of it done; null when none. */
  importing: JobProgress | null;
  /** The run being opened to replay (read in a worker), with its stage and the share of it done; null when none. */
  opening: JobProgress | null;
  setLibrary: (patch: Partial<Pick<LibrarySlice, 'runs' | 'libraryMessage' | 'undo' | 'recordingId' | 'savedAt' | 'importing' | 'opening'>>) => void;
  setRecording: (on: boolean) => void;
  /** A recorded run drawn over the training curve for comparison (e.g. the run an ablation is measured against). */
  overlay: { id: RunId; name: string; metrics: UpdateMetrics[] } | null;
  setOverlay: (overlay: LibrarySlice['overlay']) => void;
}

/** What the live run showed when a replay began; put back when it ends. */
interface LiveStash {
  metrics: UpdateMetrics[];
  references: Record<number, References>;
  last: UpdateMessage | null;
  episode: UpdateMessage | null;
  tick: number;
}

/** A recorded run driving the views instead of the trainer. */
export interface ReplaySlice {
  replay: { run: RunFile; id: RunId | null; index: number } | null;
  stash: LiveStash | null;
  /** Shows `run` in every view from its last update (the live run is put aside, not lost). */
  enterReplay: (run: RunFile, id: RunId | null) => void;
  /** Moves the replay to recorded update position `index` (in `run.metrics`), its episode from the start. */
  seekUpdate: (index: number) => void;
  /** Moves on to the next recorded episode; false at the end of the run. */
  nextReplayEpisode: () => boolean;
  /** Back to the live run as it was. */
  leaveReplay: () => void;
}

/**
 * What the views may ask of the training session (src/app/session.ts installs them; until then
 * they do nothing). Commands clicked before the worker is ready wait for it.
 */
export interface SessionActions {
  start(): Promise<void>;
  pause(): Promise<void>;
  /** Runs exactly one update. */
  step(): Promise<void>;
  /** A fresh run with the current settings (the old one is saved first). */
  reset(): Promise<void>;
  /** Opens a recorded run in replay mode (`open` loads it); training pauses meanwhile. */
  replay(open: () => Promise<void>): Promise<void>;
  /** Leaves replay mode: the live run's views come back, with what arrived meanwhile. */
  leaveReplay(): void;
  /** Turns recording of the training run on or off. */
  setRecording(on: boolean): Promise<void>;
  /** Saves the recording now. */
  saveNow(): Promise<void>;
  /** The run being trained, encoded (what could not be stored first); null when nothing is recorded. */
  currentRecording(): Promise<EncodedRun | null>;
  /** Trains on from a recorded run's settings and last weights (the deadline schedule starts again). */
  continueFrom(run: RunFile): Promise<void>;
  /** Carries on a stored run where its recording ended (e.g. the run trained when the page was reloaded). */
  resumeStored(id: RunId): Promise<void>;
  /** Applies a settings change: between updates if it keeps the model, else as a fresh run. */
  configure(patch: Partial<Config>): Promise<void>;
  /** Turns the live views on or off; turning them on catches up at once. */
  setLive(live: boolean): void;
  /** Starts a new worker on backend `b` (a fresh run). */
  chooseBackend(b: BackendChoice): Promise<void>;
  /** Races the organisations against the swarm on screen: the replayed run's, else the one being trained. */
  race(request: Omit<RaceRequest, 'horizon'>): Promise<RaceReport>;
  /** Takes training over from the other tab that trains (it pauses, its run saved), and trains here. */
  takeOver(): Promise<void>;
}

const NOT_STARTED = () => Promise.reject(new Error('the training session has not started'));

/** The training session's actions, and what it offers to resume after a reload. */
export interface SessionSlice {
  actions: SessionActions;
  /** A stored run that was being trained when the page was last closed, offered for resuming. */
  resumable: { id: RunId; name: string; updates: number } | null;
  setResumable: (r: SessionSlice['resumable']) => void;
  /** What went wrong with the trainer and what the session did about it (e.g. restarted it from a checkpoint). */
  fault: string | null;
  setFault: (fault: string | null) => void;
  /**
   * Another tab of the app trains (one tab trains at a time): it was training when this one was
   * asked to (`training`), or it took training over from this one (`taken`); null otherwise.
   */
  elsewhere: 'training' | 'taken' | null;
  setElsewhere: (elsewhere: SessionSlice['elsewhere']) => void;
}

/** How the page is shown: presenter and embed modes, hidden parts, the curve's view, the lesson step, the controls drawer. */
export interface ViewSlice {
  view: ViewSettings;
  /** Changes the view (kept in the URL hash with the settings). */
  setView: (patch: Partial<ViewSettings>) => void;
  /** Whether the controls drawer is open beside the stage. */
  drawerOpen: boolean;
  setDrawerOpen: (open: boolean) => void;
}

/** A run's first settings and the changes of them as the recorder records them (a run file's `config` and `configChanges`). */
export type ChangeRecord = Pick<RunFile, 'config' | 'configChanges'>;

/** What changed in the live run's settings while it ran, for the curve's markers. */
export interface MarkerSlice {
  /** The live run's settings changes, recorded as the worker applied them (null: none yet; cleared when a new run starts). */
  liveChanges: ChangeRecord | null;
  /**
   * Notes that the worker applied `after` (replacing `before`) from update `update` on, by the
   * recorder's rule (`withConfigChange`), so the live curve's markers match the recording's.
   */
  noteConfigChange: (before: Config, after: Config, update: number) => void;
}

export type AppState = ConfigSlice & RunSlice & SelectionSlice & PlaybackSlice & LibrarySlice & ReplaySlice & SessionSlice & ViewSlice & MarkerSlice;

function initialState(): { config: Config; notices: string[]; backendChoice: BackendChoice; view: ViewSettings } {
  const hash = typeof location === 'undefined' ? '' : location.hash;
  const { config, issues, backend, view } = configFromHash(hash);
  return { config, backendChoice: backend, view, notices: issues.map((i) => `Link setting "${i.key}": ${i.message}`) };
}

function withReferences(refs: Record<number, References>, us: UpdateMessage[]): Record<number, References> {
  if (us.every((u) => refs[u.metrics.tmax])) return refs;
  const next = { ...refs };
  for (const u of us) next[u.metrics.tmax] = u.references;
  return next;
}

/** The store as a controller is handed it: read it, change it, and (for waiting on a state) follow it. */
export type AppStore = Pick<StoreApi<AppState>, 'getState' | 'setState' | 'subscribe'>;

const appState: StateCreator<AppState> = (set, get) => ({
  ...initialState(),
  setConfig: (patch) => set((s) => ({ config: { ...s.config, ...patch } })),
  dismissNotices: () => set({ notices: [] }),

  runState: 'idle',
  backend: null,
  metrics: [],
  references: {},
  last: null,
  talk: [],
  pushTalk: (t) => set((s) => ({ talk: withTalk(s.talk, t) })),
  error: null,
  stoppedBy: null,
  setBackendChoice: (backendChoice) => set({ backendChoice }),
  setBackend: (backend) => set({ backend }),
  setRunState: (runState) => set({ runState }),
  pushUpdates: (us) =>
    set((s) =>
      us.length ? { metrics: [...s.metrics, ...us.map((u) => u.metrics)], last: us[us.length - 1], references: withReferences(s.references, us) } : {},
    ),
  live: true,
  setLive: (live) => set({ live }),
  clearRun: () => set({ metrics: [], references: {}, last: null, talk: [], error: null, stoppedBy: null, episode: null, tick: 0, liveChanges: null }),
  setError: (error, fault) => set({ error, stoppedBy: fault ?? null }),

  selectedAgent: null,
  selectAgent: (selectedAgent) => set({ selectedAgent }),

  episode: null,
  tick: 0,
  playing: true,
  speed: INITIAL_SPEED,
  showEpisode: (episode, tick) => set({ episode, tick }),
  setTick: (tick) => set({ tick }),
  setPlaying: (playing) => set({ playing }),
  setSpeed: (speed) => set({ speed }),

  runs: null,
  libraryMessage: null,
  undo: null,
  recording: true,
  recordingId: null,
  savedAt: null,
  importing: null,
  opening: null,
  setLibrary: (patch) => set(patch),
  setRecording: (recording) => set({ recording }),
  overlay: null,
  setOverlay: (overlay) => set({ overlay }),

  actions: {
    start: () => Promise.resolve(),
    pause: () => Promise.resolve(),
    step: () => Promise.resolve(),
    reset: () => Promise.resolve(),
    replay: (open) => open(),
    leaveReplay: () => undefined,
    setRecording: () => Promise.resolve(),
    saveNow: () => Promise.resolve(),
    currentRecording: () => Promise.resolve(null),
    continueFrom: () => Promise.resolve(),
    resumeStored: () => Promise.resolve(),
    configure: () => Promise.resolve(),
    setLive: () => undefined,
    chooseBackend: () => Promise.resolve(),
    race: NOT_STARTED,
    takeOver: () => Promise.resolve(),
  },
  resumable: null,
  setResumable: (resumable) => set({ resumable }),
  fault: null,
  setFault: (fault) => set({ fault }),
  elsewhere: null,
  setElsewhere: (elsewhere) => set({ elsewhere }),

  replay: null,
  stash: null,
  enterReplay: (run, id) =>
    set((s) => {
      const at = replayAt(run, run.metrics.length - 1);
      const stash = s.stash ?? { metrics: s.metrics, references: s.references, last: s.last, episode: s.episode, tick: s.tick };
      return {
        stash,
        replay: { run, id, index: Math.max(0, run.metrics.length - 1) },
        metrics: run.metrics,
        references: recordedReferences(run),
        last: at?.last ?? null,
        episode: at?.episode ?? null,
        tick: at?.episode && s.speed === 0 ? episodeLength(at.episode) : 0,
        playing: true,
      };
    }),
  seekUpdate: (index) =>
    set((s) => {
      if (!s.replay) return {};
      const at = replayAt(s.replay.run, index);
      if (!at) return {};
      const i = metricsIndex(s.replay.run, at.last.metrics.update);
      const same = at.episode?.metrics.update === s.episode?.metrics.update;
      // Scrubbed while paused, the update's episode shows whole; playing, it plays from its start.
      const tick = same ? s.tick : at.episode && !s.playing ? episodeLength(at.episode) : 0;
      return { replay: { ...s.replay, index: i }, last: at.last, episode: same ? s.episode : at.episode, tick };
    }),
  nextReplayEpisode: () => {
    const s = get();
    if (!s.replay || !s.episode) return false;
    const next = nextEpisode(s.replay.run, s.episode.metrics.update);
    if (!next) return false;
    s.seekUpdate(metricsIndex(s.replay.run, next.update));
    return true;
  },
  leaveReplay: () => set((s) => (s.stash ? { replay: null, stash: null, ...s.stash, playing: true } : { replay: null })),

  setView: (patch) => set((s) => ({ view: { ...s.view, ...patch } })),
  drawerOpen: false,
  setDrawerOpen: (drawerOpen) => set({ drawerOpen }),

  liveChanges: null,
  noteConfigChange: (before, after, update) =>
    set((s) => {
      const record = s.liveChanges ?? { config: before, configChanges: [] };
      return { liveChanges: { config: record.config, configChanges: withConfigChange(record.config, record.configChanges, update, after) } };
    }),
});

/** The page's store (the views read it with this hook; the controllers are handed it). */
export const useApp = create<AppState>()(appState);

/** A store of its own, as the page's starts (e.g. for a controller under test). */
export function createAppStore(): StoreApi<AppState> {
  return createStore<AppState>()(appState);
}

/**
 * Keeps the URL hash in step with the settings, the backend choice and the view: the one place
 * the hash is written (the page starts it; `configFromHash` reads the hash when the page loads).
 * Returns a function that stops it.
 */
export function keepHash(store: AppStore): () => void {
  if (typeof history === 'undefined') return () => undefined;
  return store.subscribe((s, prev) => {
    if (s.config !== prev.config || s.backendChoice !== prev.backendChoice || s.view !== prev.view)
      history.replaceState(null, '', hashFromConfig(s.config, s.backendChoice, s.view));
  });
}

/** Module-level selectors (stable references, as the zustand docs advise). */
export const selectConfig = (s: AppState) => s.config;
export const selectNotices = (s: AppState) => s.notices;
export const selectMetrics = (s: AppState) => s.metrics;
export const selectReferences = (s: AppState) => s.references;
export const selectRunState = (s: AppState) => s.runState;
export const selectBackend = (s: AppState) => s.backend;
export const selectLast = (s: AppState) => s.last;
export const selectTalk = (s: AppState) => s.talk;
const NO_TALK: TalkRecord[] = [];
/** The talk measurements of the run on screen: the replayed run's recorded ones (none in an older file), else the live run's. */
export const selectShownTalk = (s: AppState): readonly TalkRecord[] => (s.replay ? (s.replay.run.talk ?? NO_TALK) : s.talk);
/** The settings of the run on screen: the replayed run's (a file recorded before a setting reads it as it was then), else the live run's. */
export const selectShownConfig = (s: AppState): Config => s.replay?.run.config ?? s.config;
export const selectError = (s: AppState) => s.error;
export const selectStoppedBy = (s: AppState) => s.stoppedBy;
export const selectEpisode = (s: AppState) => s.episode;
export const selectTick = (s: AppState) => s.tick;
export const selectPlaying = (s: AppState) => s.playing;
export const selectSpeed = (s: AppState) => s.speed;
export const selectSelectedAgent = (s: AppState) => s.selectedAgent;
export const selectReplay = (s: AppState) => s.replay;
export const selectRuns = (s: AppState) => s.runs;
export const selectActions = (s: AppState) => s.actions;
export const selectResumable = (s: AppState) => s.resumable;
export const selectFault = (s: AppState) => s.fault;
export const selectElsewhere = (s: AppState) => s.elsewhere;
/** The settings changes on screen: the replayed run's recorded ones, else the live run's. */
export const selectChangeRecord = (s: AppState): ChangeRecord | null => s.replay?.run ?? s.liveChanges;
