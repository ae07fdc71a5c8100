/**
 * `npm run sweep-worker -- --queue redis://HOST:PORT [--concurrency N]`: serves the claims' training
 * runs that `npm run experiment -- --claim ... --queue ...` puts on a BullMQ queue (issue 27), on any
 * number of machines started from the same code. Each job is checked against the config schema and
 * this code's version before it trains; see docs/EXPERIMENTS.md. Exit code 2: a bad command line or
 * a queue that cannot be used (unreachable Redis, refused password).
 */
import { choiceFlag, intFlag, parseFlags, readCommandLine } from '../../lib/cli';
import { NODE_BACKENDS, type NodeBackend } from '../../lib/nodeBackends';
import { DEFAULT_QUEUE_NAME, DEFAULT_REDIS_WAIT, QueueFault, requiredQueue, type QueueAddress } from '../../claims/sweep';

const USAGE = [
  'Usage: npm run sweep-worker -- --queue redis://[:PASSWORD@]HOST:PORT [--concurrency N] [flags]',
  '',
  '  --queue           the BullMQ queue of the sweep: redis://..., rediss://... for TLS (default REDIS_URL)',
  `  --queue-name      the queue's name (default ${DEFAULT_QUEUE_NAME}, as the coordinator's --queue-name)`,
  '  --concurrency     runs to train at once, each in its own child process, 1..16 (default 1)',
  `  --backend         TF.js backend of the training: ${NODE_BACKENDS.join(' or ')} (default wasm)`,
  '  --lock-seconds    how long a run stays locked to a worker that stopped renewing the lock, 1..600 (default 30): a',
  '                    worker that dies leaves its run to another after about twice this',
  `  --redis-wait      attempts a second apart to reach a Redis that went away before stopping with exit code 2, 1..86400 (default ${DEFAULT_REDIS_WAIT})`,
  '  --help            show this help',
].join('\n');

interface Args {
  address: QueueAddress;
  queueName: string;
  concurrency: number;
  backend: NodeBackend;
  lockSeconds: number;
  redisWait: number;
}

function parse(argv: string[]): Args | 'help' {
  const v = parseFlags(argv, {
    queue: { type: 'string' },
    'queue-name': { type: 'string', default: DEFAULT_QUEUE_NAME },
    concurrency: { type: 'string', default: '1' },
    backend: { type: 'string', default: 'wasm' },
    'lock-seconds': { type: 'string', default: '30' },
    'redis-wait': { type: 'string', default: String(DEFAULT_REDIS_WAIT) },
    help: { type: 'boolean' },
  });
  if (v.help) return 'help';
  const queue = requiredQueue(v.queue, v['queue-name']);
  return {
    ...queue,
    concurrency: intFlag('concurrency', v.concurrency, 1, 16),
    backend: choiceFlag('backend', v.backend, NODE_BACKENDS),
    lockSeconds: intFlag('lock-seconds', v['lock-seconds'], 1, 600),
    redisWait: intFlag('redis-wait', v['redis-wait'], 1, 86400),
  };
}

const args = readCommandLine('sweep-worker', USAGE, parse);
try {
  const { runWorker } = await import('../../claims/queueWorker');
  await runWorker({ ...args, log: (line) => process.stderr.write(`sweep-worker: ${line}\n`) });
} catch (e) {
  if (!(e instanceof QueueFault)) throw e;
  process.stderr.write(`sweep-worker: ${e.message}\n`);
  process.exit(2);
}
