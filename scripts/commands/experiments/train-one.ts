/**
 * Child-process entry point of the claims runner's `--jobs`: trains exactly one condition and seed
 * into `<out>/cache` (`<key>.policy.json`, then `<key>.json`, each written atomically) with the same
 * code as the in-process runner, and exits. Started by `runClaims` as
 * `node --import tsx scripts/commands/experiments/train-one.ts --scale smoke|full --out <folder> --condition <id>
 * --seed <n> --backend wasm|cpu [--key <expected cache key>] [--quiet]`; exit code 0 done (or already
 * cached), 1 failed (also when its cache key is not the expected one), 2 bad flags.
 */
import { trainOneFromArgs } from '../../claims/trainOne';

process.exitCode = await trainOneFromArgs(process.argv.slice(2));
