import * as Comlink from 'comlink';
import type { ShardRemote } from './shardedTrainer';

/**
 * A shard in another thread (a browser worker or a Node worker thread), seen through Comlink: its
 * calls, each failing once `died` rejects (a thread that is gone answers nothing, so a call would
 * wait for ever); the exchange it is started with goes as a proxy, so its calls come back here.
 */
export function remoteShard(api: Comlink.Remote<ShardRemote>, died: Promise<never>): ShardRemote {
  died.catch(() => undefined); // observed by the calls that race it
  const call = (p: Promise<void>): Promise<void> => Promise.race([p, died]);
  return {
    start: (init, exchange) => call(api.start(init, Comlink.proxy(exchange))),
    step: () => call(api.step()),
    reconfigure: (config) => call(api.reconfigure(config)),
    loadWeights: (weights) => call(api.loadWeights(weights)),
    stop: (run) => call(api.stop(run)),
  };
}
