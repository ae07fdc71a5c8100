/**
 * Run files: one training run (its settings, every update's numbers, the showcase episodes and
 * policy checkpoints) as one versioned JSON document, gzip-compressed on export. The format is
 * described field by field in docs/RUNFILE.md. Pure TypeScript: no DOM, worker or TF.js.
 */
import { Gunzip, gzipSync } from 'fflate';
import { z } from 'zod';
import { CONFIG_KEYS, SCHEMA, parseField, scheduleOf, type Config } from '../rl/config';
import type { PolicyJSON } from '../rl/policy';
import { SCHEDULE_SHAPES, type DeadlineSchedule } from '../rl/schedule';
import type { EventKind } from '../sim/events';
import { STRUCTURE_METRICS, type StructureMetric } from '../rl/metrics';
import { meaningIssues } from './runChecks';
import { RUN_FORMAT, RUN_VERSION, type RunFile } from './runFormat';
import { runName } from './runName';

// No code generation: zod's JIT compiles parsers with `new Function`, which the site's
// Content-Security-Policy forbids (and which would report a violation even when caught).
z.config({ jitless: true });

/** Largest file accepted on import, gzip-compressed or plain JSON, in bytes (the app checks it before reading). */
export const MAX_COMPRESSED_BYTES = 50 * 1024 * 1024;
/** Largest JSON text accepted (after decompression, or as given), in bytes. */
export const MAX_UNCOMPRESSED_BYTES = 200 * 1024 * 1024;
/** Longest run name, in UTF-16 code units. Names are plain text: show them as text, never as markup. */
export const MAX_NAME_LENGTH = 120;
/** Suffix of exported run files. */
export const RUN_FILE_EXTENSION = '.swarmrun.json.gz';

/** The outcome of reading a run file; `error` is one or a few lines fit to show to the user. */
export type DecodeResult = { ok: true; run: RunFile } | { ok: false; error: string; code: DecodeErrorCode };

/**
 * Why a file was rejected: `empty`, `too-large` (over a size limit), `corrupt` (bad compression
 * stream, not UTF-8, not JSON: usually a truncated file), `format` (not a run file), `version` (another
 * format version), `invalid` (a field is missing or wrong).
 */
export type DecodeErrorCode = 'empty' | 'too-large' | 'corrupt' | 'format' | 'version' | 'invalid';

/**
 * Every event kind a run file may hold, for validation. When sim/events.ts gains a kind, add it
 * here too: the check below fails to compile until every EventKind is listed.
 */
export const EVENT_KINDS = [
  'work',
  'collide',
  'blocked',
  'wasted',
  'claim',
  'dm',
  'post',
  'read',
  'idle',
  'complete',
  'hire',
  'fire',
  'assign',
  'attempt',
  'side',
] as const;
type UnlistedEventKind = Exclude<EventKind, (typeof EVENT_KINDS)[number]>;
const everyEventKindListed: [UnlistedEventKind] extends [never] ? true : UnlistedEventKind = true;
void everyEventKindListed;

const int = () => z.number().int();
const count = () => z.number().int().nonnegative();
/**
 * A float, NaN and infinities included in memory; JSON writes those as null, which reads back as NaN.
 */
const real = () =>
  z.unknown().transform((v, ctx): number => {
    if (v === null) return NaN;
    if (typeof v === 'number') return v;
    ctx.addIssue({ code: 'custom', message: `expected a number, got ${describeValue(v)}` });
    return z.NEVER;
  });

const configSchema = z.record(z.string(), z.unknown()).superRefine((raw, ctx) => {
  for (const key of Object.keys(raw)) {
    if (!Object.hasOwn(SCHEMA, key)) ctx.addIssue({ code: 'custom', path: [key], message: `unknown setting "${key.slice(0, 40)}"` });
  }
  for (const key of CONFIG_KEYS) {
    const f = SCHEMA[key];
    // A setting added after the file was written is read as what the file was trained with: the
    // value before the setting existed where the default has changed since, else the default (docs/RUNFILE.md).
    if (!Object.hasOwn(raw, key)) raw[key] = f.absent ?? f.default;
    const v = raw[key];
    const type = f.kind === 'enum' ? 'string' : f.kind === 'bool' ? 'boolean' : 'number';
    if (typeof v !== type) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `expected ${type === 'string' ? 'a string' : type === 'boolean' ? 'true or false' : 'a number'}, got ${describeValue(v)}`,
      });
      continue;
    }
    const { issue } = parseField(key, String(v), 'strict');
    if (issue) ctx.addIssue({ code: 'custom', path: [key], message: issue.message });
  }
}) as unknown as z.ZodType<Config>;

const scheduleSchema = z.strictObject({
  start: z.number(),
  end: z.number(),
  shape: z.enum(SCHEDULE_SHAPES),
  warmup: count(),
  steps: count(),
});

const metricsSchema = z.strictObject({
  update: count(),
  phase: z.enum(['prior', 'rlcr']),
  tmax: int().positive(),
  ret: real(),
  retStd: real(),
  messages: real(),
  messageRate: real(),
  handoffs: real(),
  /** Added with the long families; runs recorded before read as 0. */
  neededShare: real().default(0),
  useful: real(),
  duplicate: real(),
  blocked: real(),
  emptyReads: real(),
  idle: real(),
  claims: real(),
  /** Added with the costs of talk and piling on (docs/RUNFILE.md); absent in runs recorded before. */
  wastedMessages: real().optional(),
  interrupted: real().optional(),
  conflicts: real().optional(),
  /** Added with the channels and the unofficial board (docs/RUNFILE.md); absent in runs recorded before. */
  sidePosts: real().optional(),
  sideShare: real().optional(),
  caught: real().optional(),
  attempts: real().optional(),
  entropy: real(),
  loss: real(),
  gradNorm: real(),
  collectMs: real(),
  learnMs: real(),
  // The structure presets' own numbers (rl/metrics STRUCTURE_METRICS): present only under those structures.
  structure: z
    .strictObject(Object.fromEntries(STRUCTURE_METRICS.map((k) => [k, real().optional()])) as Record<StructureMetric, z.ZodOptional<ReturnType<typeof real>>>)
    .optional(),
});

const eventSchema = z.strictObject({
  t: count(),
  agent: count(),
  kind: z.enum(EVENT_KINDS) as unknown as z.ZodType<EventKind>,
  module: int().min(-1),
  target: int().min(-1),
  useful: z.boolean(),
  carried: count().optional(),
  caught: z.boolean().optional(),
});

const moduleSchema = z.strictObject({ tests: count(), dep: int().min(-1), work: z.number(), luck: z.boolean() });

const referencesSchema = z.strictObject({ chain: real(), bestOfN: real(), scripted: real() });

const structureSchema = z.strictObject({
  kind: z.enum(['ceo', 'islands', 'orchestrator']),
  islandOf: z.array(count()).optional(),
  headCount: z.array(count()).optional(),
  assignment: z.array(int().min(-1)).optional(),
  criticalSteps: count().optional(),
});

const episodeSchema = z.strictObject({
  update: count(),
  tmax: int().positive(),
  events: z.array(eventSchema),
  modules: z.array(moduleSchema),
  references: referencesSchema,
  structure: structureSchema.optional(),
});

const ruleSchema = z
  .strictObject({ every: int().positive(), maxKept: int().positive(), stride: int().positive() })
  .refine((r) => r.stride % r.every === 0 && isPowerOfTwo(r.stride / r.every), { message: 'stride must be `every` times a power of two', path: ['stride'] });

const weightSchema = z.strictObject({ shape: z.array(count()), data: z.array(real()) }).refine((w) => w.data.length === w.shape.reduce((a, b) => a * b, 1), {
  message: 'data length does not match the shape',
  path: ['data'],
});

const policySchema = z.strictObject({
  format: z.literal('swarm-policy'),
  version: z.literal(1),
  shape: z.strictObject({ hidden: int().positive(), scorer: int().positive() }),
  obsDim: int().positive(),
  actions: int().positive(),
  weights: z.record(z.string(), weightSchema),
});

const checkpointSchema = z.strictObject({ updates: count(), weights: policySchema });

const talkSchema = z.strictObject({
  updates: count(),
  tmax: int().positive(),
  tasks: int().positive(),
  ret: real(),
  muted: real(),
  neededShare: real(),
  messages: real(),
  useful: real().optional(),
  duplicate: real().optional(),
  scripted: real().optional(),
});

const runSchema = z
  .strictObject({
    format: z.literal(RUN_FORMAT),
    version: z.literal(RUN_VERSION),
    name: z.string().min(1).max(MAX_NAME_LENGTH),
    created: z.iso.datetime(),
    config: configSchema,
    seed: count(),
    schedule: scheduleSchema,
    configChanges: z.array(z.strictObject({ update: count(), config: configSchema })),
    totalUpdates: count(),
    metrics: z.array(metricsSchema),
    episodes: z.strictObject({ rule: ruleSchema, items: z.array(episodeSchema) }),
    checkpoints: z.strictObject({ rule: ruleSchema, items: z.array(checkpointSchema) }),
    talk: z.array(talkSchema).optional(),
  })
  .superRefine((run, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    if (run.seed !== run.config.seed) issue(['seed'], `${run.seed} differs from config.seed (${run.config.seed})`);
    const expected = scheduleOf(run.config);
    const keys = Object.keys(expected) as (keyof DeadlineSchedule)[];
    if (keys.some((k) => run.schedule[k] !== expected[k]))
      issue(['schedule'], `does not match the config's deadline settings (expected ${JSON.stringify(expected)})`);
    run.metrics.forEach((m, i) => {
      if (i > 0 && m.update !== run.metrics[i - 1].update + 1)
        issue(['metrics', i, 'update'], `${m.update} does not follow update ${run.metrics[i - 1].update}: metrics must be consecutive`);
    });
    const first = run.metrics.length ? run.metrics[0].update : 0;
    const done = run.metrics.length ? run.metrics[run.metrics.length - 1].update + 1 : 0;
    run.configChanges.forEach((c, i) => {
      if (i > 0 && c.update <= run.configChanges[i - 1].update)
        issue(['configChanges', i, 'update'], `${c.update} is not after the previous change (update ${run.configChanges[i - 1].update})`);
    });
    run.episodes.items.forEach((e, i) => {
      if (i > 0 && e.update <= run.episodes.items[i - 1].update)
        issue(['episodes', 'items', i, 'update'], `${e.update} is not after the previous episode (update ${run.episodes.items[i - 1].update})`);
      else if (e.update < first || e.update >= done)
        issue(['episodes', 'items', i, 'update'], `${e.update} has no metrics (recorded updates are ${first} to ${done - 1})`);
    });
    run.checkpoints.items.forEach((c, i) => {
      if (i > 0 && c.updates <= run.checkpoints.items[i - 1].updates)
        issue(['checkpoints', 'items', i, 'updates'], `${c.updates} is not after the previous checkpoint (${run.checkpoints.items[i - 1].updates} updates)`);
    });
    run.talk?.forEach((r, i, talk) => {
      if (i > 0 && r.updates <= talk[i - 1].updates)
        issue(['talk', i, 'updates'], `${r.updates} is not after the previous measurement (${talk[i - 1].updates} updates)`);
      else if (r.updates < first || r.updates > done) issue(['talk', i, 'updates'], `${r.updates} is outside the recorded updates (${first} to ${done} done)`);
    });
    for (const m of meaningIssues(run)) issue(m.path, m.message);
  });

// Compile-time check that what the schema produces is a RunFile.
const schemaFitsType: (v: z.output<typeof runSchema>) => RunFile = (v) => v;
void schemaFitsType;

function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0;
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return v.length > 40 ? 'a string' : `the string ${JSON.stringify(v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${String(v)}`;
  return `${typeof v === 'object' ? 'an object' : typeof v}`;
}

/** `metrics[3].tmax` from ['metrics', 3, 'tmax']; `(file)` for the top level. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out ? '.' : ''}${String(p)}`;
  return out || '(file)';
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

const EXPECTED: Record<string, string> = {
  number: 'a number',
  int: 'an integer',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  record: 'an object',
  null: 'null',
};

/** One line per zod issue: where, and what is wrong, in plain words. */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const where = formatPath(issue.path);
  const got = describeValue(valueAt(input, issue.path));
  switch (issue.code) {
    case 'invalid_type':
      return `${where}: expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${got}`;
    case 'invalid_value':
      return `${where}: expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${got}`;
    case 'too_small':
      return `${where}: ${issue.origin === 'string' ? `must have at least ${issue.minimum} character(s)` : issue.origin === 'array' ? `must have at least ${issue.minimum} item(s)` : `must be at least ${issue.minimum}${issue.inclusive ? '' : ' (exclusive)'}`}, got ${got}`;
    case 'too_big':
      return `${where}: ${issue.origin === 'string' ? `must have at most ${issue.maximum} characters` : issue.origin === 'array' ? `must have at most ${issue.maximum} items` : `must be at most ${issue.maximum}`}, got ${got}`;
    case 'unrecognized_keys':
      return `${where}: unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_format':
      return `${where}: expected ${issue.format === 'datetime' ? 'an ISO 8601 date-time such as 2024-05-01T12:00:00.000Z' : `the ${issue.format} format`}, got ${got}`;
    default:
      return `${where}: ${issue.message}`;
  }
}

/** How many problems a rejection message lists before "and N more". */
const MAX_LISTED_ISSUES = 5;

/**
 * Checks a parsed JSON value (or an in-memory run) against the run-file schema. Returns the run
 * (with nulls written for NaN read back as NaN), or a message naming each problem by its path, such
 * as "metrics[3].tmax: expected a number, got the string "x"".
 */
export function validateRun(value: unknown): DecodeResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return fail('format', `Not a run file: expected a JSON object, got ${describeValue(value)}.`);
  const head = value as Record<string, unknown>;
  if (head.format !== RUN_FORMAT) {
    const what = head.format === undefined ? 'it has no "format" field' : `its format is ${JSON.stringify(head.format)}`;
    return fail('format', `Not a Swarm Playground run file: ${what}, expected "${RUN_FORMAT}".`);
  }
  if (head.version !== RUN_VERSION && head.version !== 1) {
    const v = head.version;
    const newer = typeof v === 'number' && v > RUN_VERSION ? ' (written by a newer version of the app)' : '';
    return fail('version', `Unsupported run file version ${JSON.stringify(v ?? null)}${newer}: this build reads versions 1 and ${RUN_VERSION}.`);
  }
  const proto = prototypeKeyPath(head);
  if (proto) return fail('invalid', `Invalid run file:\n${proto}: a field named "__proto__" is not allowed`);
  const current = head.version === 1 ? fromVersion1(head) : head;
  const parsed = runSchema.safeParse(current);
  if (parsed.success) {
    // A name of white space only (or invisible characters) would list as an empty row: the run's default name instead.
    const run = parsed.data;
    const name = cleanRunName(run.name, runName(run.config, new Date(run.created)));
    return { ok: true, run: name === run.name ? run : { ...run, name } };
  }
  const lines = parsed.error.issues.slice(0, MAX_LISTED_ISSUES).map((i) => describeIssue(i, current));
  const more = parsed.error.issues.length - lines.length;
  if (more > 0) lines.push(`... and ${more} more problem(s)`);
  return fail('invalid', `Invalid run file:\n${lines.join('\n')}`);
}

/**
 * A version-1 file as version 2. Version 1 wrote the structure metrics flat in each metrics row,
 * beside the others; version 2 holds them under the row's `structure`. Nothing else differs.
 */
function fromVersion1(head: Record<string, unknown>): Record<string, unknown> {
  const structural = new Set<string>(STRUCTURE_METRICS);
  const row = (m: unknown): unknown => {
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return m;
    const entries = Object.entries(m);
    const structure = entries.filter(([k]) => structural.has(k));
    const rest = Object.fromEntries(entries.filter(([k]) => !structural.has(k)));
    return structure.length ? { ...rest, structure: Object.fromEntries(structure) } : rest;
  };
  return { ...head, version: RUN_VERSION, metrics: Array.isArray(head.metrics) ? head.metrics.map(row) : head.metrics };
}

/**
 * Where a "__proto__" key sits in the parts of a file that are read as open records (the settings,
 * the weights), or null. JSON.parse keeps it as a plain key, but a copy made by assignment would
 * turn it into the object's prototype, so such a file is refused rather than read.
 */
function prototypeKeyPath(head: Record<string, unknown>): string | null {
  const has = (o: unknown) => o !== null && typeof o === 'object' && Object.hasOwn(o, '__proto__');
  if (has(head.config)) return 'config';
  const changes = Array.isArray(head.configChanges) ? head.configChanges : [];
  for (const [i, c] of changes.entries()) if (has((c as { config?: unknown })?.config)) return `configChanges[${i}].config`;
  const items = (head.checkpoints as { items?: unknown })?.items;
  if (Array.isArray(items))
    for (const [i, c] of items.entries())
      if (has((c as { weights?: { weights?: unknown } })?.weights?.weights)) return `checkpoints.items[${i}].weights.weights`;
  return null;
}

function fail(code: DecodeErrorCode, error: string): DecodeResult {
  return { ok: false, error, code };
}

const MB = 1024 * 1024;
const mb = (n: number) => (n >= MB ? `${(n / MB).toFixed(1)} MB` : `${n} bytes`);

/** True when `bytes` starts with the gzip magic number (1f 8b). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

class TooLarge extends Error {}

/** Where a long read is: its stage and the share of that stage done (0 to 1). */
export type DecodeProgress = (stage: 'unpack' | 'parse' | 'check', done: number) => void;

/** Decompresses a gzip stream, stopping as soon as the output passes `limit` bytes. */
function gunzipLimited(bytes: Uint8Array, limit: number, progress?: DecodeProgress): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  const stream = new Gunzip((chunk, final) => {
    total += chunk.length;
    if (total > limit) throw new TooLarge();
    chunks.push(chunk);
    if (final) ended = true;
  });
  // Small input chunks: one chunk of a gzip bomb unpacks to at most ~1000x its size, so the limit
  // is noticed after a few megabytes too many instead of after the whole chunk (a gigabyte).
  const CHUNK = 1 << 14;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    stream.push(bytes.subarray(i, Math.min(bytes.length, i + CHUNK)), i + CHUNK >= bytes.length);
    if (progress && i % (64 * CHUNK) === 0) progress('unpack', Math.max(i / bytes.length, total / limit));
  }
  if (!ended) throw new Error('unexpected end of data');
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Size limits of a run file, in bytes. */
export interface SizeLimits {
  compressed: number;
  uncompressed: number;
}

/** The limits every import applies. */
export const RUN_FILE_LIMITS: SizeLimits = { compressed: MAX_COMPRESSED_BYTES, uncompressed: MAX_UNCOMPRESSED_BYTES };

/**
 * Reads a run file: gzip-compressed JSON (what `encodeRunFile` writes) or plain JSON, told apart by
 * the gzip magic bytes. Never throws; a rejected file gets a message that says what is wrong.
 * `limits` exists for tests; the app keeps the defaults. `progress` hears of each stage (in a worker,
 * to show how far a large import got).
 */
export function decodeRunFile(bytes: Uint8Array, limits: SizeLimits = RUN_FILE_LIMITS, progress?: DecodeProgress): DecodeResult {
  if (bytes.length === 0) return fail('empty', 'The file is empty.');
  let text: Uint8Array = bytes;
  if (isGzip(bytes)) {
    if (bytes.length > limits.compressed)
      return fail('too-large', `The file is too large: ${mb(bytes.length)} compressed, the limit is ${mb(limits.compressed)}.`);
    try {
      text = gunzipLimited(bytes, limits.uncompressed, progress);
    } catch (e) {
      if (e instanceof TooLarge) return fail('too-large', `The file is too large: it unpacks to more than ${mb(limits.uncompressed)}, the limit.`);
      return fail('corrupt', `The file is truncated or corrupt: its compressed data cannot be unpacked (${(e as Error).message}).`);
    }
  } else if (bytes.length > Math.min(limits.compressed, limits.uncompressed)) {
    return fail(
      'too-large',
      `The file is too large: ${mb(bytes.length)} of JSON, the limit for a file is ${mb(Math.min(limits.compressed, limits.uncompressed))}.`,
    );
  }
  let json: unknown;
  progress?.('parse', 0);
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(text));
  } catch (e) {
    return fail('corrupt', `The file is truncated or corrupt: it is not valid JSON (${(e as Error).message}).`);
  }
  progress?.('check', 0);
  return validateRun(json);
}

/**
 * Writes a run as gzip-compressed JSON (NaN and infinities become null). Throws if the run is
 * invalid or larger than the import limits, so every file written can be read back.
 */
export function encodeRunFile(run: RunFile): Uint8Array {
  const checked = validateRun(run);
  if (!checked.ok) throw new Error(checked.error);
  const json = new TextEncoder().encode(JSON.stringify(run));
  if (json.length > MAX_UNCOMPRESSED_BYTES)
    throw new Error(`The run is too large to export: ${mb(json.length)} of JSON, the limit is ${mb(MAX_UNCOMPRESSED_BYTES)}.`);
  const gz = gzipSync(json, { level: 6, mtime: 0 });
  if (gz.length > MAX_COMPRESSED_BYTES)
    throw new Error(`The run is too large to export: ${mb(gz.length)} compressed, the limit is ${mb(MAX_COMPRESSED_BYTES)}.`);
  return gz;
}

/** White space and invisible format characters (zero-width spaces, direction marks): a name of these only shows as nothing. */
const INVISIBLE = /[\s\p{Cf}]/gu;

/** Whether `name` shows as nothing (empty, white space or invisible characters only). */
export function blankRunName(name: string): boolean {
  return name.replace(INVISIBLE, '') === '';
}

/**
 * A valid run name from user text: surrounding white space trimmed, cut to MAX_NAME_LENGTH; a name
 * that would show as nothing becomes `fallback`. The name may hold any characters: display it as text only.
 */
export function cleanRunName(name: string, fallback = 'Untitled run'): string {
  const t = name.trim();
  return (blankRunName(t) ? fallback : t).slice(0, MAX_NAME_LENGTH);
}

/** What a run library lists about a run, computed once when it is stored. */
export interface RunFacts {
  /** Plain text: render it as text, never as markup. */
  name: string;
  /** When the run was recorded (ISO 8601). */
  created: string;
  /** e.g. "coupled, 8 agents, 600 updates, Tmax 8->24 linear, seed 1". */
  configSummary: string;
  /** Mean return of the last recorded update; null when nothing was recorded or it was not a number. */
  finalReturn: number | null;
  /** Updates recorded. */
  updates: number;
  /** Policy checkpoints held (0: the run cannot be continued). */
  checkpoints: number;
  /** Size of the stored (compressed) run file in bytes. */
  bytes: number;
}

/** The list facts of `run`, whose encoded file is `bytes` long. */
export function runFacts(run: RunFile, bytes: number): RunFacts {
  const last = run.metrics[run.metrics.length - 1];
  return {
    name: run.name,
    created: run.created,
    configSummary: summariseConfig(run.config),
    finalReturn: last && Number.isFinite(last.ret) ? last.ret : null,
    updates: run.metrics.length,
    checkpoints: run.checkpoints.items.length,
    bytes,
  };
}

/** A short description of a config for lists, e.g. "coupled, 8 agents, 600 updates, Tmax 8->24 linear, seed 1". */
export function summariseConfig(c: Config): string {
  const prior = c.prior ? ` + ${c.prior} prior` : '';
  const tmax = c.tmaxStart === c.tmaxEnd ? `Tmax ${c.tmaxEnd}` : `Tmax ${c.tmaxStart}->${c.tmaxEnd} ${c.tmaxShape}`;
  const structure =
    c.structure === 'ceo' ? ', CEO' : c.structure === 'islands' ? `, ${c.islands} islands` : c.structure === 'orchestrator' ? ', orchestrator' : '';
  const ablations = [
    c.latencyPenalty > 0 ? `latency penalty ${c.latencyPenalty}` : '',
    c.critic ? `critic γ ${c.gamma} λ ${c.lambda}` : '',
    c.rewards === 'individual' ? 'individual rewards' : '',
    c.advantage !== 'dr-grpo' ? c.advantage : '',
  ]
    .filter(Boolean)
    .map((a) => `, ${a}`)
    .join('');
  return `${c.family}, ${c.agents} agents${structure}, ${c.updates} updates${prior}, ${tmax}${ablations}, seed ${c.seed}`;
}

/** A file name for a run: its name reduced to safe characters, its date, and RUN_FILE_EXTENSION. */
export function suggestedFileName(run: Pick<RunFile, 'name' | 'created'>): string {
  const base =
    run.name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 60) || 'run';
  return `${base}-${run.created.slice(0, 10)}${RUN_FILE_EXTENSION}`;
}

/**
 * The shortest decimal that reads back as the same float32 (TF.js weights are float32): it makes
 * checkpoints about 40% smaller than the full double expansion without changing a weight.
 */
export function float32Shortest(x: number): number {
  if (!Number.isFinite(x)) return x;
  const f = Math.fround(x);
  for (let p = 1; p < 9; p++) {
    const y = Number(f.toPrecision(p));
    if (Math.fround(y) === f) return y;
  }
  return Number(f.toPrecision(9));
}

/** A copy of policy weights with every number in its shortest float32 form (see `float32Shortest`). */
export function compactWeights(w: PolicyJSON): PolicyJSON {
  const weights: PolicyJSON['weights'] = {};
  for (const [k, v] of Object.entries(w.weights)) weights[k] = { shape: v.shape.slice(), data: v.data.map(float32Shortest) };
  return { ...w, shape: { ...w.shape }, weights };
}
