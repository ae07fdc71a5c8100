/**
 * `npm run sweep-status -- --queue redis://HOST:PORT [--queue-name NAME] [--json]`: what the sweep
 * queue holds now, read from Redis from any machine (issue 27): per sweep, its runs done, running
 * (on which worker, at which update), waiting and failed (with the reason). The coordinator's own
 * `--status-json FILE` adds the runs not queued yet and an ETA. Exit code 2: a bad command line or a
 * queue that cannot be used.
 */
import { parseFlags, readCommandLine } from '../../lib/cli';
import { DEFAULT_QUEUE_NAME, QueueFault, requiredQueue } from '../../claims/sweep';

const USAGE = [
  'Usage: npm run sweep-status -- --queue redis://[:PASSWORD@]HOST:PORT [--queue-name NAME] [--json]',
  '',
  '  --queue       the BullMQ queue of the sweep: redis://..., rediss://... for TLS (default REDIS_URL)',
  `  --queue-name  the queue's name (default ${DEFAULT_QUEUE_NAME})`,
  '  --json        print the status as JSON (format swarm-queue-status, version 1)',
].join('\n');

const args = readCommandLine('sweep-status', USAGE, (argv) => {
  const v = parseFlags(argv, {
    queue: { type: 'string' },
    'queue-name': { type: 'string', default: DEFAULT_QUEUE_NAME },
    json: { type: 'boolean' },
    help: { type: 'boolean' },
  });
  if (v.help) return 'help';
  const queue = requiredQueue(v.queue, v['queue-name']);
  return { ...queue, json: v.json === true };
});

try {
  const { queueStatus } = await import('../../claims/queueList');
  const s = await queueStatus(args.address, args.queueName);
  if (args.json) process.stdout.write(JSON.stringify(s, null, 1) + '\n');
  else {
    const lines = [`queue ${s.queue} on ${s.redis} at ${s.at}: ${s.sweeps.length ? `${s.sweeps.length} sweep(s)` : 'empty'}`];
    for (const w of s.sweeps) {
      lines.push(`sweep ${w.sweep}: ${w.runs.done} done, ${w.runs.running} running, ${w.runs.waiting} waiting, ${w.runs.failed} failed`);
      for (const r of w.list.filter((r) => r.state === 'running'))
        lines.push(`  running  ${r.run} on ${r.worker ?? '?'}${r.update !== null && r.updates ? ` at ${r.update}/${r.updates}` : ''}`);
      for (const r of w.list.filter((r) => r.state === 'failed')) lines.push(`  failed   ${r.run}: ${r.reason}`);
    }
    process.stdout.write(lines.join('\n') + '\n');
  }
} catch (e) {
  if (!(e instanceof QueueFault)) throw e;
  process.stderr.write(`sweep-status: ${e.message}\n`);
  process.exit(2);
}
