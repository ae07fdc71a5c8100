/**
 * What the queue's coordinator, its workers and `sweep-status` share: the connection to Redis (tried
 * again once a second, given up with one line and exit code 2), the first check of an address, job
 * ids, printable text from the network and job times.
 */
import { type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { CONFIG_KEYS, type Config } from '../../src/rl/config';
import { DEFAULT_REDIS_WAIT, QueueFault, redact, type QueueAddress } from './sweep';

/** How long the first connection may take before the address counts as unreachable. */
export const CONNECT_TIMEOUT_MS = 3000;
/** Between two attempts to reach a Redis that went away. */
const RETRY_MS = 1000;
/** The job id of a run: its cache key (BullMQ refuses ids that are plain integers, hence the prefix). */
export const jobId = (key: string) => `run-${key}`;

/** Where and as whom to connect to `a`, shared by BullMQ's connections and the first check. */
function server(a: QueueAddress) {
  return {
    host: a.host,
    port: a.port,
    db: a.db,
    ...(a.username ? { username: a.username } : {}),
    ...(a.password ? { password: a.password } : {}),
    ...(a.tls ? { tls: {} } : {}),
    connectTimeout: CONNECT_TIMEOUT_MS,
  };
}

/**
 * BullMQ's connection options for `a` (BullMQ's workers need maxRetriesPerRequest null). A lost
 * connection is tried again once a second (ioredis's retryStrategy); after `wait` attempts in a row
 * fail, `lost` is called (it stops the process), so a Redis that went away is never waited for
 * without end: about `wait` seconds when its port refuses, up to four times that when the host
 * stopped answering (each attempt then takes the connect timeout).
 */
export function connection(a: QueueAddress, wait = DEFAULT_REDIS_WAIT, lost?: () => void): ConnectionOptions {
  return {
    ...server(a),
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => {
      if (times <= wait || !lost) return RETRY_MS;
      lost();
      return null;
    },
  };
}

/** Remembers the last connection error of BullMQ's connections and prints each new one once. */
export function errorLog(log: (line: string) => void) {
  let last = '';
  return {
    get last() {
      return last;
    },
    on: (e: Error) => {
      const m = redact(e.message);
      if (m !== last) log(`queue: ${m}${/ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|Connection is closed/.test(m) ? ' (trying again)' : ''}`);
      last = m;
    },
  };
}

/** Stops the process with one line and exit code 2 (after `cleanup`), once. */
let stopping = false;
export function giveUp(line: string, cleanup: () => void = () => {}): void {
  if (stopping) return;
  stopping = true;
  try {
    cleanup();
  } finally {
    process.stderr.write(line + '\n');
    process.exit(2);
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
/**
 * Connects once, without retries or an offline queue, and pings: an unreachable address, a refused
 * password or a server that is not Redis becomes one QueueFault line (the URL redacted), never a hang.
 */
export async function checkRedis(a: QueueAddress): Promise<void> {
  const r = new Redis({
    ...server(a),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let last = '';
  r.on('error', (e: Error) => {
    last = e.message;
  });
  try {
    await withTimeout(r.connect(), CONNECT_TIMEOUT_MS + 1000, 'connecting');
    await withTimeout(r.ping(), CONNECT_TIMEOUT_MS, 'a ping');
  } catch (e) {
    const msg = redact(`${(e as Error).message} ${last}`);
    if (/NOAUTH|WRONGPASS|invalid (username-)?password|Authentication required/i.test(msg))
      throw new QueueFault(`Redis at ${a.shown} refused the credentials: give the password as redis://:PASSWORD@host:port or in REDIS_URL`);
    if (/ECONNREFUSED/.test(msg)) throw new QueueFault(`cannot reach Redis at ${a.shown}: connection refused (is redis-server running there, on that port?)`);
    if (/Protocol error/i.test(msg)) throw new QueueFault(`cannot use ${a.shown}: the server there does not speak Redis`);
    if (/ENOTFOUND|EAI_AGAIN/.test(msg)) throw new QueueFault(`cannot reach Redis at ${a.shown}: unknown host`);
    throw new QueueFault(`cannot reach Redis at ${a.shown}: ${msg.trim().split('\n')[0]}`);
  } finally {
    r.disconnect();
  }
}

/** Text from the network as one printable line: control characters (terminal escapes) shown as `?`, at most `max` characters. */
export const printable = (text: string, max = 300) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, max);

export const sameConfig = (a: Config, b: Config) => CONFIG_KEYS.every((k) => a[k] === b[k]);

/** A time of a job as Redis holds it (ms since 1970; checked, it comes from the network) as ISO text, or null. */
const when = z.number().int().min(1).max(8.64e15);
export const isoOf = (ms: unknown) => {
  const t = when.safeParse(ms);
  return t.success ? new Date(t.data).toISOString() : null;
};
