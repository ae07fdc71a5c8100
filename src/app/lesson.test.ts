import { describe, expect, it } from 'vitest';
import { fakeRun } from '../core/testing';
import { defaultConfig } from '../rl/config';
import { createAppStore, type SessionActions } from '../store/store';
import type { BackendReport } from '../worker/protocol';
import { LessonController, whenReady } from './lesson';

const backend: BackendReport = { backend: 'wasm', reason: 'wasm', timings: {}, notices: [] };

/** Resolves after pending promise callbacks have run (no timers involved). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** Session actions that only note what they were asked (replay runs the opener it is given). */
function fakeActions(calls: string[]): SessionActions {
  const note = (name: string) => async () => void calls.push(name);
  return {
    ...createAppStore().getState().actions,
    start: note('start'),
    step: note('step'),
    reset: note('reset'),
    leaveReplay: () => void calls.push('leaveReplay'),
    configure: async (patch) => void calls.push(`configure agents=${patch.agents}`),
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
    lesson.setUp({ setup: { kind: 'live', config: { agents: 5 }, run: 'train' }, curve: 'relative', drawer: true }, fakeActions(calls), true);
    expect(store.getState().view.curve).toBe('relative');
    expect(store.getState().drawerOpen).toBe(true);
    await settle();
    expect(calls).toEqual(['configure agents=5']);
    store.getState().setBackend(backend);
    await settle();
    expect(calls).toEqual(['configure agents=5', 'start']);
    // Already training: the next step does not start it again; a narrow screen keeps the drawer shut.
    store.getState().setRunState('running');
    lesson.setUp({ setup: { kind: 'live', config: {}, run: 'train' }, drawer: true }, fakeActions(calls), false);
    await settle();
    expect(calls.at(-1)).toBe(`configure agents=${defaultConfig().agents}`);
    expect(store.getState().drawerOpen).toBe(false);
    expect(store.getState().view.curve).toBe('return');
  });

  it('a one-update step leaves a replay, starts a fresh run and steps it once', async () => {
    const store = createAppStore();
    store.getState().setBackend(backend);
    store.getState().enterReplay(fakeRun(3), null);
    const calls: string[] = [];
    new LessonController(store, async () => undefined).setUp({ setup: { kind: 'live', config: { agents: 8 }, run: 'step' } }, fakeActions(calls), true);
    await settle();
    expect(calls).toEqual(['leaveReplay', 'configure agents=8', 'reset', 'step']);
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
    lesson.setUp(step, fakeActions(calls), true);
    await settle();
    lesson.setUp(step, fakeActions(calls), true);
    await settle();
    expect(opened).toEqual(['long-coupled']);
    store.getState().leaveReplay();
    lesson.setUp(step, fakeActions(calls), true);
    await settle();
    lesson.setUp({ setup: { kind: 'pretrained', family: 'coupled' } }, fakeActions(calls), true);
    await settle();
    expect(opened).toEqual(['long-coupled', 'long-coupled', 'coupled']);
    expect(calls.filter((c) => c === 'replay')).toHaveLength(3);
  });
});
