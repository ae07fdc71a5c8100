import { create } from 'zustand';
import type { References } from '../rl/compare';
import type { Config } from '../rl/config';
import type { UpdateMetrics } from '../rl/trainer';
import type { BackendChoice, BackendReport, RunState, UpdateMessage } from '../worker/protocol';
import { configFromHash, hashFromConfig } from './urlConfig';

/** Simulated minutes per second the episode views start at (a 24-minute sprint in six seconds). */
export const INITIAL_SPEED = 4;

/** The run's settings, kept in the URL hash so a copied link reproduces it. */
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
  error: string | null;
  setBackendChoice: (b: BackendChoice) => void;
  setBackend: (b: BackendReport | null) => void;
  setRunState: (s: RunState) => void;
  pushUpdate: (u: UpdateMessage) => void;
  /** Appends updates that arrived while the views were not live, keeping the last as `last`. */
  pushUpdates: (us: UpdateMessage[]) => void;
  /** Whether the views follow every update; off trains at full speed and catches up on pause. */
  live: boolean;
  setLive: (live: boolean) => void;
  clearRun: () => void;
  setError: (e: string | null) => void;
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

export type AppState = ConfigSlice & RunSlice & SelectionSlice & PlaybackSlice;

function initialState(): { config: Config; notices: string[]; backendChoice: BackendChoice } {
  const hash = typeof location === 'undefined' ? '' : location.hash;
  const { config, issues, backend } = configFromHash(hash);
  return { config, backendChoice: backend, notices: issues.map((i) => `Link setting "${i.key}": ${i.message}`) };
}

function withReferences(refs: Record<number, References>, us: UpdateMessage[]): Record<number, References> {
  if (us.every((u) => refs[u.metrics.tmax])) return refs;
  const next = { ...refs };
  for (const u of us) next[u.metrics.tmax] = u.references;
  return next;
}

function writeHash(config: Config, backend: BackendChoice): void {
  if (typeof history !== 'undefined') history.replaceState(null, '', hashFromConfig(config, backend));
}

export const useApp = create<AppState>()((set) => ({
  ...initialState(),
  setConfig: (patch) =>
    set((s) => {
      const config = { ...s.config, ...patch };
      writeHash(config, s.backendChoice);
      return { config };
    }),
  dismissNotices: () => set({ notices: [] }),

  runState: 'idle',
  backend: null,
  metrics: [],
  references: {},
  last: null,
  error: null,
  setBackendChoice: (backendChoice) =>
    set((s) => {
      writeHash(s.config, backendChoice);
      return { backendChoice };
    }),
  setBackend: (backend) => set({ backend }),
  setRunState: (runState) => set({ runState }),
  pushUpdate: (u) => set((s) => ({ metrics: [...s.metrics, u.metrics], last: u, references: withReferences(s.references, [u]) })),
  pushUpdates: (us) =>
    set((s) => (us.length ? { metrics: [...s.metrics, ...us.map((u) => u.metrics)], last: us[us.length - 1], references: withReferences(s.references, us) } : {})),
  live: true,
  setLive: (live) => set({ live }),
  clearRun: () => set({ metrics: [], references: {}, last: null, error: null, episode: null, tick: 0 }),
  setError: (error) => set({ error }),

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
}));

/** Module-level selectors (stable references, as the zustand docs advise). */
export const selectConfig = (s: AppState) => s.config;
export const selectNotices = (s: AppState) => s.notices;
export const selectMetrics = (s: AppState) => s.metrics;
export const selectReferences = (s: AppState) => s.references;
export const selectRunState = (s: AppState) => s.runState;
export const selectBackend = (s: AppState) => s.backend;
export const selectLast = (s: AppState) => s.last;
export const selectError = (s: AppState) => s.error;
export const selectEpisode = (s: AppState) => s.episode;
export const selectTick = (s: AppState) => s.tick;
export const selectPlaying = (s: AppState) => s.playing;
export const selectSpeed = (s: AppState) => s.speed;
export const selectSelectedAgent = (s: AppState) => s.selectedAgent;
