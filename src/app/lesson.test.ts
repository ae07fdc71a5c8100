import { describe, expect, it } from 'vitest';
import { fakeRun } from '../core/testing';
import { defaultConfig } from '../rl/config';
import { createAppStore, type AppStore, type SessionActions } from '../store/store';
import type { BackendReport } from '../worker/protocol';
import { LessonController, whenReady } from './lesson';

const backend: BackendReport = { backend: 'wasm', reason: 'wasm', timings: {}, notices: [] };

/** Resolves after pending promise callbacks have run (no timers involved). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** Session actions that note what they were asked (replay runs the opener it is given); with a store, configure and start also change it as the session would. */
function fakeActions(calls: string[], store?: AppStore): SessionActions {
  const note = (name: string) => async () => void calls.push(name);
  return {
    ...createAppStore().getState().actions,
    start: async () => {
      calls.push('start');
      store?.getState().setRunState('running');
    },
    step: note('step'),
    reset: note('reset'),
    leaveReplay: () => {
      calls.push('leaveReplay');
      store?.getState().leaveReplay();
    },
    configure: async (patch) => {
      calls.push(`configure agents=${patch.agents}`);
      store?.getState().setConfig(patch);
    },
    replay: async (open) => {
      calls.push('replay');
      await open();
    },
  };
}

describe('whenReady', () => {
  it('waits for the worker to choose its backend, and answers at once when it has', async () => {
    const store = createAppStore();
    let ready = false;
    void whenReady(store).then(() => (ready = true));
    await settle();
    expect(ready).toBe(false);
    store.getState().setBackend(backend);
    await settle();
    expect(ready).toBe(true);
    await expect(whenReady(store)).resolves.toBeUndefined();
  });
});

describe('LessonController', () => {
  it('a live step sets the view and drawer, configures the defaults with its settings, and trains once the worker is ready', async () => {
    const store = createAppStore();
    const calls: string[] = [];
    const lesson = new LessonController(store, async () => undefined);
    void lesson.setUp({ setup: { kind: 'live', config: { agents: 5 }, run: 'train' }, curve: 'relative', drawer: true }, fakeActions(calls, store), true);
    expect(store.getState().view.curve).toBe('relative');
    expect(store.getState().drawerOpen).toBe(true);
    await settle();
    expect(calls).toEqual(['configure agents=5']);
    store.getState().setBackend(backend);
    await settle();
    expect(calls).toEqual(['configure agents=5', 'start']);
    // Already training these settings: the step keeps the run (no configure, no reset, no second start).
    expect(store.getState().runState).toBe('running');
    void lesson.setUp({ setup: { kind: 'live', config: { agents: 5 }, run: 'train' } }, fakeActions(calls, store), true);
    await settle();
    expect(calls).toEqual(['configure agents=5', 'start']);
    // Another step's settings: configured (agents is structural, so that is a fresh run) and started; a narrow screen keeps the drawer shut.
    store.getState().setRunState('idle');
    void lesson.setUp({ setup: { kind: 'live', config: {}, run: 'train' }, drawer: true }, fakeActions(calls, store), false);
    await settle();
    expect(calls.slice(2)).toEqual([`configure agents=${defaultConfig().agents}`, 'start']);
    expect(store.getState().drawerOpen).toBe(false);
    expect(store.getState().view.curve).toBe('return');
  });

  it("opened during a run of other settings, restarts cleanly with the step's: configure, a fresh run, then train (not a dead screen)", async () => {
    const store = createAppStore();
    store.getState().setBackend(backend);
    store.getState().setRunState('running');
    const calls: string[] = [];
    // A non-structural change (the updates) would only retune the running trainer: the step asks for a fresh run too.
    const lesson = new LessonController(store, async () => undefined);
    const actions = fakeActions(calls, store);
    const reset = actions.reset;
    actions.reset = async () => {
      await reset();
      store.getState().setRunState('idle');
    };
    await lesson.setUp({ setup: { kind: 'live', config: { updates: 77 }, run: 'train' } }, actions, true);
    expect(calls).toEqual([`configure agents=${defaultConfig().agents}`, 'reset', 'start']);
    expect(store.getState().config.updates).toBe(77);
    expect(store.getState().runState).toBe('running');
  });

  it('a step that leaves Train to the class always begins a fresh, idle run, even with the same settings (a finished run would disable Train)', async () => {
    const store = createAppStore();
    store.getState().setBackend(backend);
    store.getState().setRunState('finished');
    const calls: string[] = [];
    await new LessonController(store, async () => undefined).setUp({ setup: { kind: 'live', config: {}, run: 'none' } }, fakeActions(calls, store), true);
    expect(calls).toEqual(['reset']);
  });

  it('only the newest setup acts: paging on before the worker is ready leaves one start, for the last step', async () => {
    const store = createAppStore();
    const calls: string[] = [];
    const lesson = new LessonController(store, async () => undefined);
    void lesson.setUp({ setup: { kind: 'live', config: { agents: 3 }, run: 'step' } }, fakeActions(calls, store), true);
    void lesson.setUp({ setup: { kind: 'live', config: { agents: 4 }, run: 'train' } }, fakeActions(calls, store), true);
    await settle();
    store.getState().setBackend(backend);
    await settle();
    expect(calls.filter((c) => c === 'start' || c === 'step')).toEqual(['start']);
    expect(store.getState().config.agents).toBe(4);
  });

  it('a one-update step leaves a replay, starts a fresh run and steps it once', async () => {
    const store = createAppStore();
    store.getState().setBackend(backend);
    store.getState().enterReplay(fakeRun(3), null);
    const calls: string[] = [];
    await new LessonController(store, async () => undefined).setUp(
      { setup: { kind: 'live', config: { agents: 6 }, run: 'step' } },
      fakeActions(calls, store),
      true,
    );
    // agents is structural: the configure is the fresh run (no second reset).
    expect(calls).toEqual(['leaveReplay', 'configure agents=6', 'step']);
    await new LessonController(store, async () => undefined).setUp(
      { setup: { kind: 'live', config: { agents: 6 }, run: 'step' } },
      fakeActions(calls, store),
      true,
    );
    expect(calls.slice(3)).toEqual(['reset', 'step']);
  });

  it('loads a pretrained run once while it stays on screen, and again after something else was shown', async () => {
    const store = createAppStore();
    const opened: string[] = [];
    const lesson = new LessonController(store, async (family) => {
      opened.push(family);
      store.getState().enterReplay({ ...fakeRun(2), name: family }, null);
    });
    const calls: string[] = [];
    const step = { setup: { kind: 'pretrained' as const, family: 'long-coupled' as const } };
    void lesson.setUp(step, fakeActions(calls), true);
    await settle();
    void lesson.setUp(step, fakeActions(calls), true);
    await settle();
    expect(opened).toEqual(['long-coupled']);
    store.getState().leaveReplay();
    void lesson.setUp(step, fakeActions(calls), true);
    await settle();
    void lesson.setUp({ setup: { kind: 'pretrained', family: 'coupled' } }, fakeActions(calls), true);
    await settle();
    expect(opened).toEqual(['long-coupled', 'long-coupled', 'coupled']);
    expect(calls.filter((c) => c === 'replay')).toHaveLength(3);
  });
  it('a pretrained run still loading when the class pages on is dropped: the next step runs live, with no replay put over it', async () => {
    const store = createAppStore();
    store.getState().setBackend(backend);
    let finish = () => undefined as void;
    const signals: AbortSignal[] = [];
    // The page's opener: the run enters replay when its file has been read, unless it is no longer wanted.
    const lesson = new LessonController(store, (family, wanted) => {
      signals.push(wanted);
      return new Promise<void>((resolve) => {
        finish = () => {
          if (!wanted.aborted) store.getState().enterReplay({ ...fakeRun(2), name: family }, null);
          resolve();
        };
      });
    });
    const calls: string[] = [];
    void lesson.setUp({ setup: { kind: 'pretrained', family: 'long-coupled' } }, fakeActions(calls, store), true);
    await settle();
    expect(signals[0].aborted).toBe(false);
    await lesson.setUp({ setup: { kind: 'live', config: { agents: 5 }, run: 'train' } }, fakeActions(calls, store), true);
    expect(signals[0].aborted).toBe(true);
    finish();
    await settle();
    expect(store.getState().replay).toBeNull();
    expect(store.getState().runState).toBe('running');
    expect(store.getState().config.agents).toBe(5);
    // Back on the pretrained step, the run is loaded again (it was never shown) and shown.
    void lesson.setUp({ setup: { kind: 'pretrained', family: 'long-coupled' } }, fakeActions(calls, store), true);
    await settle();
    finish();
    await settle();
    expect(signals).toHaveLength(2);
    expect(store.getState().replay?.run.name).toBe('long-coupled');
  });
});
