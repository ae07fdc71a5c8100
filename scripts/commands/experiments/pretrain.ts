/**
 * Trains the pretrained swarms the app ships (`public/pretrained/<family>.swarmrun.json.gz`): one
 * run per task family with the default settings, the family's calibrated deadline schedule and, for
 * a short family, a short imitation prior, recorded like the app records (fewer episodes kept, only the final weights,
 * so each file stays small). The settings are `pretrainedConfig` (src/core/pretrained.ts): 600 updates
 * at 8 -> 24 minutes for the short families (coupled, parallel, search, mixed), the defaults for
 * the long ones (the costs of talk, no prior, the family's calibrated schedule): long-planned, the
 * default sprint, as the app's Train runs it (450 updates of 2 tasks x 16 rollouts, 20 -> 72 minutes),
 * the other long families 300 updates of 4 x 8 at 20 -> 80; `--updates` and `--prior` set the same
 * number for every family.
 *
 *   npm run pretrain -- [--families long-coupled,long-parallel] [--updates 300] [--prior 100] [--out public/pretrained]
 */
import { join } from 'node:path';
import { SCHEMA } from '../../../src/rl/config';
import type { NumberRule } from '../../../src/rl/readNumber';
import { Trainer } from '../../../src/rl/trainer';
import { FAMILIES, type Family } from '../../../src/sim/task';
import { pretrainedConfig, PRETRAINED_PRIOR } from '../../../src/core/pretrained';
import { useBackend } from '../../lib/backend';
import { numberFlag, parseFlags, pathFlag, readCommandLine, UsageError } from '../../lib/cli';
import { requireOutput } from '../../lib/outputFolder';
import { ProgressBar } from '../../lib/progress';
import { TrainingRecording } from '../../lib/runfile';

const USAGE = `usage: npm run pretrain -- [--families ${FAMILIES.join(',')}] [--updates N (default: 450 for long-planned, 300 for the other long families, 600 for a short one)] [--prior N (default: 0 for a long family, ${PRETRAINED_PRIOR} for a short one)] [--out public/pretrained]`;

interface Options {
  families: Family[];
  /** RLCR updates; absent: the family's own (pretrainedConfig). */
  updates: number | undefined;
  /** Imitation updates; absent: the family's own (pretrainedConfig). */
  prior: number | undefined;
  out: string;
}

function parseOptions(argv: string[]): Options | 'help' {
  const values = parseFlags(argv, {
    families: { type: 'string', default: FAMILIES.join(',') },
    updates: { type: 'string' },
    prior: { type: 'string' },
    out: { type: 'string', default: 'public/pretrained' },
    help: { type: 'boolean', default: false },
  });
  if (values.help) return 'help';
  const families = values.families.split(',').map((f) => f.trim()) as Family[];
  if (families.some((f) => !f)) throw new UsageError(`--families: "${values.families}" has an empty item`);
  const bad = families.filter((f) => !FAMILIES.includes(f));
  if (bad.length) throw new UsageError(`unknown task families: ${bad.join(', ')} (known: ${FAMILIES.join(', ')})`);
  return {
    families,
    updates: values.updates === undefined ? undefined : numberFlag('updates', values.updates, SCHEMA.updates as NumberRule),
    prior: values.prior === undefined ? undefined : numberFlag('prior', values.prior, SCHEMA.prior as NumberRule),
    out: pathFlag('out', values.out, 'a folder'),
  };
}

async function main(): Promise<void> {
  const values = readCommandLine('pretrain', USAGE, parseOptions);
  requireOutput('pretrain', 'out', values.out, 'folder');
  await useBackend('wasm');
  for (const family of values.families) {
    const config = pretrainedConfig(family, { updates: values.updates, prior: values.prior });
    const trainer = new Trainer(config);
    const recording = new TrainingRecording(config, {
      name: `Pretrained swarm: ${family} tasks, ${config.agents} agents`,
      maxEpisodes: 48,
      checkpointEvery: 1_000_000,
      maxCheckpoints: 1,
    });
    const bar = new ProgressBar(family, trainer.totalUpdates, process.stderr, { work: config });
    while (!trainer.finished) {
      const result = await trainer.step();
      await recording.record(trainer, result);
      bar.update(trainer.update, `ret ${result.metrics.ret.toFixed(3)}`);
    }
    const talk = await recording.measureTalk(trainer);
    const path = join(values.out, `${family}.swarmrun.json.gz`);
    recording.write(path, trainer);
    console.log(
      `${family}: talk is worth ${(talk.ret - talk.muted).toFixed(3)} (${talk.ret.toFixed(3)} talking vs ${talk.muted.toFixed(3)} muted, 16 tasks at ${talk.tmax} min); ${Math.round(100 * talk.neededShare)}% of deliveries needed`,
    );
    const last = recording.recorder.snapshot().metrics.at(-1);
    console.log(`${family}: final return ${last?.ret.toFixed(3)} at Tmax ${last?.tmax} -> ${path}`);
    trainer.dispose();
  }
}

void main();
