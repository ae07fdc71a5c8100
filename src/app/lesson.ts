import type { RunFile } from '../core/runFormat';
import { defaultConfig, type Config } from '../rl/config';
import type { AppStore, SessionActions } from '../store/store';
import type { CurveView } from '../store/view';
import type { PretrainedFamily } from '../core/pretrained';

type Pretrained = PretrainedFamily;

/** What a lesson step asks of the app (the steps themselves, with their words, are ui/lessonSteps.ts). */
export interface LessonStage {
  /** Train live from fresh weights with `config` on top of the defaults (`train`: start at once, `step`: one update only), or replay a shipped pretrained run. */
  setup: { kind: 'live'; config: Partial<Config>; run: 'train' | 'step' | 'none' } | { kind: 'pretrained'; family: Pretrained };
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

  /** `openPretrained` puts a family's pretrained run into replay in `store`. */
  constructor(
    private readonly store: AppStore,
    private readonly openPretrained: (family: Pretrained) => Promise<void>,
  ) {}

  /** Sets up `stage` with the session's `controls`; `wide`: the drawer fits beside the views (on a phone it would cover the lesson, so it stays shut). */
  setUp(stage: LessonStage, controls: SessionActions, wide: boolean): void {
    const s = this.store.getState();
    s.setView({ curve: stage.curve ?? 'return' });
    s.setDrawerOpen(!!stage.drawer && wide);
    if (stage.setup.kind === 'pretrained') {
      const family = stage.setup.family;
      if (!this.shown || this.shown.family !== family || s.replay?.run !== this.shown.run) {
        void controls.replay(async () => {
          await this.openPretrained(family);
          const run = this.store.getState().replay?.run;
          this.shown = run ? { family, run } : null;
        });
      }
      return;
    }
    const { config, run } = stage.setup;
    if (s.replay) controls.leaveReplay();
    void controls.configure({ ...defaultConfig(), seed: s.config.seed, ...config });
    if (run === 'step') {
      void controls.reset();
      void whenReady(this.store).then(() => controls.step());
    } else if (run === 'train') {
      void whenReady(this.store).then(() => {
        const state = this.store.getState().runState;
        if (state !== 'running' && state !== 'finished') void controls.start();
      });
    }
  }
}
