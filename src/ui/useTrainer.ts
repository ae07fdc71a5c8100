import * as Comlink from 'comlink';
import { useCallback, useEffect, useRef } from 'react';
import { STRUCTURAL_KEYS, type Config } from '../rl/config';
import { useApp } from '../store/store';
import { lastCheckpoint } from '../core/recorder';
import type { RunFile } from '../core/runFile';
import { createTrainerClient } from '../worker/client';
import { threadsFromSearch } from '../worker/threads';
import { recordingSaver, refreshRuns } from './runLibrary';
import type { BackendChoice, RunState, TalkReport, UpdateMessage } from '../worker/protocol';

type Client = ReturnType<typeof createTrainerClient>;

/** How often a running recording is saved to the library. */
const AUTOSAVE_MS = 60_000;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Owns the training worker: starts it, streams its updates into the store and turns the user's
 * commands into worker calls. The main thread never waits on training.
 */
export function useTrainer() {
  const client = useRef<Client | null>(null);
  const held = useRef<UpdateMessage[]>([]);

  const flush = useCallback(() => {
    if (useApp.getState().replay) return;
    const us = held.current;
    held.current = [];
    useApp.getState().pushUpdates(us);
  }, []);

  const boot = useCallback((backend: BackendChoice) => {
    const old = client.current;
    // The old worker goes once its recording is saved.
    if (old) void recordingSaver.save(old.api).finally(() => old.terminate());
    const c = createTrainerClient();
    client.current = c;
    const store = useApp.getState();
    held.current = [];
    store.leaveReplay();
    store.clearRun();
    store.setBackend(null);
    store.setRunState('idle');
    recordingSaver.begin();
    void c.api
      .subscribe(
        Comlink.proxy((u: UpdateMessage) => {
          if (client.current !== c) return;
          const s = useApp.getState();
          // Replaying a recorded run, or with live views off, updates wait until the views are back.
          if (s.live && !s.replay) s.pushUpdate(u);
          else held.current.push(u);
          // A single step is kept at once; a running loop is saved when it pauses (and every minute).
          if (s.runState !== 'running') void recordingSaver.save(c.api);
        }),
        Comlink.proxy((s: RunState) => {
          if (client.current !== c) return;
          if (s !== 'running') flush();
          useApp.getState().setRunState(s);
          // A pause or the end of the run is a natural moment to keep what was recorded.
          if (s === 'paused' || s === 'finished') void recordingSaver.save(c.api);
        }),
        // Talk is measured rarely and shown at once (the live run's figure, whatever is on screen).
        Comlink.proxy((t: TalkReport) => {
          if (client.current === c) useApp.getState().pushTalk(t);
        }),
      )
      .then(() => c.api.setRecording(useApp.getState().recording))
      .then(() => c.api.init(useApp.getState().config, backend, threadsFromSearch(location.search)))
      .then((report) => {
        if (client.current === c) useApp.getState().setBackend(report);
      })
      .catch((e: unknown) => useApp.getState().setError(`The trainer could not start: ${message(e)}`));
  }, [flush]);

  useEffect(() => {
    boot(useApp.getState().backendChoice);
    void refreshRuns();
    // While training runs, the recording is saved every minute, and whenever the page is hidden.
    const save = () => {
      if (useApp.getState().runState === 'running') void recordingSaver.save(client.current?.api ?? null);
    };
    const timer = setInterval(save, AUTOSAVE_MS);
    const onHide = () => {
      if (document.visibilityState === 'hidden') void recordingSaver.save(client.current?.api ?? null);
    };
    document.addEventListener('visibilitychange', onHide);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onHide);
      client.current?.terminate();
      client.current = null;
    };
  }, [boot]);

  const call = useCallback((f: (c: Client) => Promise<unknown>) => {
    const c = client.current;
    if (c) f(c).catch((e: unknown) => useApp.getState().setError(message(e)));
  }, []);

  return {
    start: useCallback(() => call((c) => c.api.start()), [call]),
    pause: useCallback(() => call((c) => c.api.pause()), [call]),
    step: useCallback(() => call((c) => c.api.step()), [call]),
    reset: useCallback(() => {
      held.current = [];
      useApp.getState().leaveReplay();
      useApp.getState().clearRun();
      void recordingSaver.save(client.current?.api ?? null);
      recordingSaver.begin();
      call((c) => c.api.reset(useApp.getState().config));
    }, [call]),
    /** Opens a recorded run in replay mode; training pauses meanwhile. */
    replay: useCallback(
      (open: () => Promise<void>) => {
        call((c) => c.api.pause());
        void open();
      },
      [call],
    ),
    /** Leaves replay mode: the live run's views come back, with what arrived meanwhile. */
    leaveReplay: useCallback(() => {
      useApp.getState().leaveReplay();
      flush();
    }, [flush]),
    /** Turns recording of the training run on or off. */
    setRecording: useCallback(
      (on: boolean) => {
        useApp.getState().setRecording(on);
        call((c) => c.api.setRecording(on));
      },
      [call],
    ),
    /** Saves the recording now. */
    saveNow: useCallback(() => recordingSaver.save(client.current?.api ?? null), []),
    /** The worker's API, for exports of the run in memory. */
    api: useCallback(() => client.current?.api ?? null, []),
    /**
     * Trains on from a recorded run: its settings (without the imitation prior, which the weights
     * already went through) and the weights of its last checkpoint. The deadline schedule starts again
     * from its beginning.
     */
    continueFrom: useCallback(
      (run: RunFile) => {
        const cp = lastCheckpoint(run);
        if (!cp) {
          useApp.getState().setError('This run holds no policy weights, so it cannot be trained further.');
          return;
        }
        const s = useApp.getState();
        s.leaveReplay();
        void recordingSaver.save(client.current?.api ?? null);
        recordingSaver.begin();
        held.current = [];
        // The imitation prior, if the run had one, is behind these weights already.
        s.setConfig({ ...run.config, prior: 0 });
        s.clearRun();
        const config = useApp.getState().config;
        call((c) => c.api.resetWith(config, cp.weights));
      },
      [call],
    ),
    /** Applies a settings change: between updates if it keeps the model, else as a reset. */
    configure: useCallback(
      (patch: Partial<Config>) => {
        const before = useApp.getState().config;
        useApp.getState().setConfig(patch);
        const after = useApp.getState().config;
        if (STRUCTURAL_KEYS.some((k) => before[k] !== after[k])) {
          held.current = [];
          useApp.getState().leaveReplay();
          useApp.getState().clearRun();
          void recordingSaver.save(client.current?.api ?? null);
          recordingSaver.begin();
          call((c) => c.api.reset(after));
        } else {
          call((c) => c.api.setConfig(after));
        }
      },
      [call],
    ),
    /** Turns the live views on or off; turning them on catches up at once. */
    setLive: useCallback(
      (live: boolean) => {
        useApp.getState().setLive(live);
        if (live) flush();
      },
      [flush],
    ),
    chooseBackend: useCallback(
      (b: BackendChoice) => {
        useApp.getState().setBackendChoice(b);
        boot(b);
      },
      [boot],
    ),
  };
}

export type TrainerControls = ReturnType<typeof useTrainer>;
