import * as Comlink from 'comlink';
import { useCallback, useEffect, useRef } from 'react';
import { STRUCTURAL_KEYS, type Config } from '../rl/config';
import { useApp } from '../store/store';
import { createTrainerClient } from '../worker/client';
import type { BackendChoice, RunState, UpdateMessage } from '../worker/protocol';

type Client = ReturnType<typeof createTrainerClient>;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Owns the training worker: starts it, streams its updates into the store and turns the user's
 * commands into worker calls. The main thread never waits on training.
 */
export function useTrainer() {
  const client = useRef<Client | null>(null);
  const held = useRef<UpdateMessage[]>([]);

  const flush = useCallback(() => {
    const us = held.current;
    held.current = [];
    useApp.getState().pushUpdates(us);
  }, []);

  const boot = useCallback((backend: BackendChoice) => {
    client.current?.terminate();
    const c = createTrainerClient();
    client.current = c;
    const store = useApp.getState();
    held.current = [];
    store.clearRun();
    store.setBackend(null);
    store.setRunState('idle');
    void c.api
      .subscribe(
        Comlink.proxy((u: UpdateMessage) => {
          if (client.current !== c) return;
          if (useApp.getState().live) useApp.getState().pushUpdate(u);
          else held.current.push(u);
        }),
        Comlink.proxy((s: RunState) => {
          if (client.current !== c) return;
          if (s !== 'running') flush();
          useApp.getState().setRunState(s);
        }),
      )
      .then(() => c.api.init(useApp.getState().config, backend))
      .then((report) => {
        if (client.current === c) useApp.getState().setBackend(report);
      })
      .catch((e: unknown) => useApp.getState().setError(`The trainer could not start: ${message(e)}`));
  }, [flush]);

  useEffect(() => {
    boot(useApp.getState().backendChoice);
    return () => {
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
      useApp.getState().clearRun();
      call((c) => c.api.reset(useApp.getState().config));
    }, [call]),
    /** Applies a settings change: between updates if it keeps the model, else as a reset. */
    configure: useCallback(
      (patch: Partial<Config>) => {
        const before = useApp.getState().config;
        useApp.getState().setConfig(patch);
        const after = useApp.getState().config;
        if (STRUCTURAL_KEYS.some((k) => before[k] !== after[k])) {
          held.current = [];
          useApp.getState().clearRun();
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
