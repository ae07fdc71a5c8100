import type { RunFile } from '../core/runFormat';
import { CONFIG_KEYS, defaultConfig, rebuildsTrainer, type Config } from '../rl/config';
import type { AppStore, SessionActions } from '../store/store';
import type { CurveView } from '../store/view';
import type { PretrainedFamily } from '../core/pretrained';
import type { LessonSetup } from '../core/lesson';

type Pretrained = PretrainedFamily;

/** What a lesson step asks of the app (the steps themselves, with their words, are ui/lessonSteps.ts). */
export interface LessonStage {
  /** Train live from fresh weights with `config` on top of the defaults (`train`: start at once, `step`: one update only, `none`: a fresh run the class starts), or replay a shipped pretrained run. */
  setup: LessonSetup;
  /** The curve's view while the step is on screen (default: the return). */
  curve?: CurveView;
  /** Whether the step's view is in the controls drawer. */
  drawer?: boolean;
}

/** Resolves once the worker has chosen its backend (training calls before that would fail). */
export function whenReady(store: AppStore): Promise<void> {
  if (store.getState().backend) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = store.subscribe((s) => {
      if (s.backend) {
        stop();
        resolve();
      }
    });
  });
}

/**
 * Sets the app up for the lesson's steps: the step's run (trained live or a pretrained one
 * replayed), its curve view and the drawer. It remembers the pretrained run it put on screen, so a
 * later step on the same run, still on screen, does not load it again.
 */
export class LessonController {
  private shown: { family: string; run: RunFile } | null = null;
  /** Counts setups: an older setup still waiting (on the worker, on a reset) does nothing once a newer one began. */
  private generation = 0;
  /** The pretrained run a setup is still loading: a newer setup aborts it, so a slow load never replaces the newer step's run. */
  private loading: AbortController | null = null;

  /** `openPretrained` puts a family's pretrained run into replay in `store`, unless `wanted` is aborted first. */
  constructor(
    private readonly store: AppStore,
    private readonly openPretrained: (family: Pretrained, wanted: AbortSignal) => Promise<void>,
  ) {}

  /**
   * Sets up `stage` with the session's `controls`; `wide`: the drawer fits beside the views (on a
   * phone it would cover the lesson, so it stays shut). A live step owns its run: a run with other
   * settings (another step's, or one the class changed) is replaced by a fresh one with the step's,
   * so nothing (an ablation, a dragged schedule, a finished curve) leaks from the step before; a run
   * already training the step's settings keeps training. Each setup supersedes the one before it, so
   * paging quickly through the steps leaves only the last one's run (a pretrained run still loading
   * for an earlier step is dropped, not put into replay over the later step's).
   */
  setUp(stage: LessonStage, controls: SessionActions, wide: boolean): Promise<void> {
    const generation = ++this.generation;
    const current = () => generation === this.generation;
    this.loading?.abort();
    this.loading = null;
    const s = this.store.getState();
    s.setView({ curve: stage.curve ?? 'return' });
    s.setDrawerOpen(!!stage.drawer && wide);
    if (stage.setup.kind === 'pretrained') {
      const family = stage.setup.family;
      if (!this.shown || this.shown.family !== family || s.replay?.run !== this.shown.run) {
        const loading = new AbortController();
        this.loading = loading;
        return controls.replay(async () => {
          await this.openPretrained(family, loading.signal);
          if (loading.signal.aborted) return;
          if (this.loading === loading) this.loading = null;
          const run = this.store.getState().replay?.run;
          this.shown = run ? { family, run } : null;
        });
      }
      return Promise.resolve();
    }
    const { config, run } = stage.setup;
    if (s.replay) controls.leaveReplay();
    const before = s.config;
    const target: Config = { ...defaultConfig(), seed: before.seed, ...config };
    const same = CONFIG_KEYS.every((k) => before[k] === target[k]);
    return (async () => {
      // A one-update or a press-Train-yourself step always begins from fresh weights; a training step keeps a run of its own settings.
      const fresh = run !== 'train' || !same;
      if (!same) await controls.configure(target);
      if (!current()) return;
      if (fresh && (same || !rebuildsTrainer(before, target))) await controls.reset();
      await whenReady(this.store);
      if (!current()) return;
      if (run === 'step') await controls.step();
      else if (run === 'train') {
        const state = this.store.getState().runState;
        if (state !== 'running' && state !== 'finished') await controls.start();
      }
    })();
  }
}
