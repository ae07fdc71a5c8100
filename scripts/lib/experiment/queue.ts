/**
 * `npm run experiment -- --seeds 1,2,3 --queue redis://...`: the seeds of a plain experiment trained
 * by `npm run sweep-worker` processes (issue 27). Each seed is one job named by its key in the
 * experiment's folder; a worker trains it with this same command (`--seeds N` into a scratch folder)
 * and sends back the seed's files, which are checked and written into the folder as a local run
 * writes them, so the report, the summary and a later resume are the same as without --queue.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheKey, writeAtomic } from '../cache';
import { experimentSettings, type ExperimentFolder } from '../experimentFolder';
import { bytesHash, checkExperimentResult, configText, seedFiles } from '../../claims/experimentJobs';
import { coordinate, type QueueTask } from '../../claims/queue';
import { CACHE_VERSION } from '../../claims/scale';
import { codeVersion, ExperimentResult, type ExperimentJobData } from '../../claims/sweep';
import type { Options } from './options';
import type { SeedResult } from './seedResult';

/** Trains `seeds` of the experiment `opts` on its queue into `folder` (each seed's files, then its record; `kept(seed)` after). */
export async function trainSeedsOnQueue(
  opts: Options,
  folder: ExperimentFolder<SeedResult>,
  seeds: readonly number[],
  kept: (seed: number) => void = () => {},
): Promise<void> {
  if (!opts.queue) throw new Error('trainSeedsOnQueue needs a queue');
  const code = codeVersion(CACHE_VERSION);
  const run = { evalTasks: opts.evalTasks, greedy: opts.greedy, backend: opts.backend };
  // The starting weights travel with each job (the workers cannot read this machine's files).
  const startPath = opts.loadPolicy ?? opts.initFrom;
  const startBytes = startPath === null ? null : readFileSync(startPath);
  const start =
    startBytes === null ? null : { flag: opts.loadPolicy !== null ? ('load-policy' as const) : ('init-from' as const), base64: startBytes.toString('base64') };
  const hash = startBytes === null ? null : bytesHash(startBytes);
  const settings = experimentSettings(opts.config, {
    ...run,
    loadPolicy: opts.loadPolicy !== null ? hash : null,
    initFrom: opts.initFrom !== null ? hash : null,
  });
  // The same on a restart with the same command line; another experiment's unfinished seeds are another sweep.
  const sweep = cacheKey({ code, kind: 'experiment', settings, seeds: opts.seeds });
  const tasks: QueueTask[] = seeds.map((seed) => {
    const config = { ...opts.config, seed };
    const key = folder.key(seed);
    return {
      condition: 'experiment',
      seed,
      key,
      parentKey: null,
      name: `seed ${seed}`,
      updates: config.prior + config.updates,
      data: (): ExperimentJobData => ({ kind: 'experiment', sweep, code, seed, key, config: configText(config), ...run, start }),
      accept: (value) => {
        const res = ExperimentResult.safeParse(value);
        if (!res.success) throw new Error('its worker sent back something that is not an experiment seed');
        const { result, runFile } = checkExperimentResult(res.data, { key, seed, config });
        const f = seedFiles(seed);
        writeAtomic(join(opts.out, f.policy), res.data.policy);
        writeAtomic(join(opts.out, f.runFile), runFile);
        writeAtomic(join(opts.out, f.curve), res.data.curve);
        const r = result as SeedResult;
        folder.keep(seed, r);
        kept(seed);
        const trained = r.orgs.find((o) => o.org === 'trained swarm');
        return { trainSeconds: r.trainSeconds, note: `return ${(trained?.ret ?? NaN).toFixed(3)}` };
      },
    };
  });
  await coordinate(tasks, {
    address: opts.queue,
    queueName: opts.queueName,
    sweep,
    quiet: opts.quiet,
    log: (line) => process.stderr.write(line + '\n'),
    statusFile: opts.statusJson,
    redisWait: opts.redisWait,
    kept: `the seeds finished in ${opts.out}/`,
  });
}
