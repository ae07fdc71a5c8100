// A worker thread of a data-parallel run (scripts/lib/shardThreads.ts): Node 20 does not pass the
// parent's TypeScript loader to worker threads, so this plain module registers it and then loads
// the shard's code.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
