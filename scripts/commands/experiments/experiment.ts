/**
 * Trains the swarm with RLCR on one setting and a list of seeds, then plays the trained swarm and the
 * reference organisations on fresh tasks at the final deadline and prints the comparison.
 * Run `npm run experiment -- --help`. The command line and the output folder are checked before
 * TF.js loads (the training is imported after), so a refusal comes at once.
 */
import { ExperimentFolder, experimentSettings } from '../../lib/experimentFolder';
import { requireOutput } from '../../lib/outputFolder';
import { fail, fileHash, readOptions } from '../../lib/experiment/options';
import type { SeedResult } from '../../lib/experiment/seedResult';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.some((a) => a === '--claim' || a.startsWith('--claim='))) return (await import('../../claims/commandLine')).runClaimsFromArgs(argv);
  const sweep = argv.find((a) => ['--shard', '--report-only'].includes(a.split('=')[0]));
  if (sweep) fail([`${sweep.split('=')[0]} works with --claim only (a plain experiment spreads its seeds with --queue)`]);
  const opts = readOptions(argv);
  requireOutput('error', 'out', opts.out, 'folder');
  if (opts.statusJson !== null) requireOutput('error', 'status-json', opts.statusJson, 'file');
  const settings = experimentSettings(opts.config, {
    evalTasks: opts.evalTasks,
    greedy: opts.greedy,
    backend: opts.backend,
    loadPolicy: fileHash('load-policy', opts.loadPolicy),
    initFrom: fileHash('init-from', opts.initFrom),
  });
  const folder = ExperimentFolder.open<SeedResult>(opts.out, settings);
  if (!(folder instanceof ExperimentFolder)) {
    process.stderr.write(`error: --out ${folder.refused}\n`);
    process.exit(2);
  }
  await (await import('../../lib/experiment/run')).runExperiment(opts, folder);
}

main().catch((e: unknown) => {
  process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
  // A queue that cannot be used (unreachable Redis, refused password, another sweep): exit code 2, as a bad command line.
  process.exit(e instanceof Error && e.name === 'QueueFault' ? 2 : 1);
});
