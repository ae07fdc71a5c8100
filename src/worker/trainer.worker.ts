import * as Comlink from 'comlink';
import type { FaultMessage } from './client';
import { TrainerService } from './service';
import { shardWorkers } from './shardWorkers';

// Held for the worker's whole life (the page names the worker): the page asks for the same lock and
// is granted it the moment this worker ends, killed or closed, which no event reports.
if (self.name) void navigator.locks?.request(self.name, () => new Promise<never>(() => undefined));

// A flat run on wasm trains in two shards, the second in a worker of its own where a core is spare (shardedTrainer.ts).
const service = new TrainerService({}, {}, shardWorkers(navigator.hardwareConcurrency));
Comlink.expose(service);

/**
 * Test hooks (the page's `injectFault`, never sent by the app itself), only in the e2e suite's build
 * (`import.meta.env.SWARM_TEST_HOOKS`, vite.config.ts; a normal build drops them): fail the way real
 * faults do, so the page's recovery can be tested end to end. `throw`: an uncaught error (the page
 * sees the worker's `error` event); `close`: the worker ends itself silently (its life lock, or
 * without Web Locks the watchdog, notices); `device`: the next update throws, as after a lost GPU device or WebGL context; `nan`:
 * the next update's loss is NaN and the trainer's numeric guard stops it.
 */
if (import.meta.env.SWARM_TEST_HOOKS) {
  self.addEventListener('message', (e: MessageEvent) => {
    const kind = (e.data as Partial<FaultMessage> | null)?.swarmFault;
    if (kind === 'throw') {
      setTimeout(() => {
        throw new Error('injected worker fault');
      });
    } else if (kind === 'close') {
      self.close();
    } else if (kind === 'device') {
      service.loseDevice();
    } else if (kind === 'nan') {
      service.poisonNextLoss();
    }
  });
}
