/**
 * A bare page for testing the training worker on its own (worker-check.html).
 * `?backend=cpu|wasm|webgl|webgpu|auto` picks the backend (default auto). By default it steps a tiny
 * run twice; `&steps=N` steps N times, `&preset=default` uses the default config instead of the tiny
 * one, and `&scenario=run` also drives start, pause, setConfig and reset through the real worker.
 * The outcome is written as JSON into `<pre id="result">` with `data-done="1"`, or the error with
 * `data-error="1"`.
 */
import * as Comlink from 'comlink';
import { defaultConfig, type Config } from '../rl/config';
import { createTrainerClient } from './client';
import { BACKENDS, type BackendChoice, type RunState, type TrainerApi, type UpdateMessage } from './protocol';

const params = new URLSearchParams(location.search);
const rawBackend = params.get('backend') ?? 'auto';
const scenario = params.get('scenario') ?? 'steps';
const steps = Math.max(1, Math.floor(Number(params.get('steps'))) || 2);
const out = document.getElementById('result') ?? document.body.appendChild(document.createElement('pre'));
out.id = 'result';

const tiny: Config = { ...defaultConfig(), agents: 2, tasksPerUpdate: 1, groupSize: 2, tmaxStart: 6, tmaxEnd: 6, updates: 3 };
const config: Config = params.get('preset') === 'default' ? { ...defaultConfig(), updates: 100 } : tiny;

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`check failed: ${what}`);
}

async function until(ok: () => boolean, what: string, ms = 20_000): Promise<void> {
  const t0 = performance.now();
  while (!ok()) {
    if (performance.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function main(): Promise<Record<string, unknown>> {
  if (rawBackend !== 'auto' && !(BACKENDS as readonly string[]).includes(rawBackend)) throw new Error(`unknown backend "${rawBackend}"`);
  const client = createTrainerClient();
  const updates: UpdateMessage[] = [];
  const states: RunState[] = [];
  try {
    await client.api.subscribe(
      Comlink.proxy((u: UpdateMessage) => void updates.push(u)),
      Comlink.proxy((s: RunState) => void states.push(s)),
    );
    const t0 = performance.now();
    const report = await client.api.init(config, rawBackend as BackendChoice);
    const t1 = performance.now();
    for (let i = 0; i < steps; i++) check((await client.api.step()) === null, `update ${i} without a numeric fault`);
    const t2 = performance.now();
    await until(() => updates.length >= steps, 'an update message per step');
    const first = updates[0];
    check(
      first.total === config.updates && first.modules.length > 0 && Array.isArray(first.events) && Number.isFinite(first.metrics.ret),
      'update message shape',
    );
    const result: Record<string, unknown> = {
      report,
      updates: updates.length,
      initMs: Math.round(t1 - t0),
      stepsMs: Math.round(t2 - t1),
      perUpdate: updates.map((u) => ({ tmax: u.metrics.tmax, collectMs: Math.round(u.metrics.collectMs), learnMs: Math.round(u.metrics.learnMs) })),
    };
    if (scenario === 'run') result.run = await runScenario(client.api, updates, states);
    result.states = states;
    return result;
  } finally {
    client.terminate();
  }
}

/** start / pause / setConfig / reset through the worker; returns what it observed. */
async function runScenario(api: TrainerApi, updates: UpdateMessage[], states: RunState[]): Promise<Record<string, unknown>> {
  const lastState = () => states.at(-1);
  await api.setConfig({ ...tiny, updates: 1000, tmaxStart: 9, tmaxEnd: 9 });
  const running = api.start();
  await until(() => updates.length >= 5, 'updates while running');
  await api.pause();
  await running;
  await until(() => lastState() === 'paused', 'the paused state');
  await new Promise((r) => setTimeout(r, 300));
  const atPause = updates.length;
  await new Promise((r) => setTimeout(r, 300));
  check(updates.length === atPause, 'no updates after pause');
  const last = updates[atPause - 1];
  check(last.total === 1000 && last.metrics.tmax === 9, 'schedule change applied');
  await api.setConfig({ ...tiny, agents: 3 });
  await until(() => lastState() === 'idle', 'idle after a structural setConfig');
  await api.step();
  await until(() => updates.length === atPause + 1, 'the update of the rebuilt trainer');
  check(updates[atPause].metrics.update === 0 && updates[atPause].total === 3, 'fresh trainer after structural change');
  await api.reset(tiny);
  await api.start();
  await until(() => lastState() === 'finished', 'a short run to finish');
  return { updates: updates.length, pausedAfter: atPause, tmaxAfterSetConfig: last.metrics.tmax };
}

main().then(
  (result) => {
    out.textContent = JSON.stringify(result, null, 2);
    out.dataset.done = '1';
  },
  (err: unknown) => {
    out.textContent = err instanceof Error ? `${err.name}: ${err.message}\n${err.stack ?? ''}` : String(err);
    out.dataset.error = '1';
  },
);
