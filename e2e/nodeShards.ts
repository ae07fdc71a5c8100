/**
 * For e2e/speed.spec.ts: trains a run in two shards in Node, as `npm run experiment -- --threads 2`
 * does (two worker threads, wasm), and prints each update's loss as JSON, so that the test can
 * compare the page's training with the command line's. Usage:
 * `npx tsx e2e/nodeShards.ts '<settings as the URL hash writes them>' <updates>`.
 */
import { useBackend } from '../scripts/lib/backend';
import { settingsFlag } from '../scripts/lib/settingsFlag';
import { startThreaded } from '../scripts/lib/shardThreads';
import { defaultConfig } from '../src/rl/config';

const [hash, updates] = process.argv.slice(2);
await useBackend('wasm');
const trainer = await startThreaded(settingsFlag(hash, defaultConfig()), 2);
const losses: number[] = [];
try {
  for (let u = 0; u < Number(updates); u++) losses.push(Math.fround((await trainer.step()).metrics.loss));
} finally {
  await trainer.dispose();
}
process.stdout.write(`${JSON.stringify(losses)}\n`);
