/**
 * Where a trained swarm's duplicate work and its minutes to 90% go: `npm run pile-audit -- --run <file.swarmrun.json.gz>
 * [--tasks 64] [--seed <n>] [--json <file>]`.
 *
 * Plays the run file's last checkpoint on fresh evaluation tasks at the run's final deadline and
 * under its rules, exactly as `npm run experiment` evaluates it (the same tasks, sampling seed and
 * return), and the scripted organisation beside it, and audits every minute (src/sim/pileAudit.ts):
 * who worked each open module (its claimant alone, with others, others without it, nobody), and for
 * every redundant agent-minute (the duplicate work) what that agent could have done instead (its own
 * claimed module, a free one, or nothing the rules let it work). Then where the minutes to 90% of
 * the tests went (src/sim/pathAudit.ts): against a bound no team can beat, the minutes modules waited
 * to start once ready, and the minutes they stalled once started, by what their last mover did
 * instead; and the two teams' minutes to 90% compared task by task (src/sim/pairedTimes.ts). Then what its deliveries were worth (src/sim/talkAudit.ts): DMs and reads whose
 * receiver went on to build on the interface they brought, those it never built on, and those that
 * brought nothing. Last, what the piles cost the team's return: the swarm played again on the same
 * tasks and sampling seed with every pile's other agents idling instead (`pilesIdled`), the two
 * returns compared task by task. Prints per-episode means; asserts nothing. Flat teams only.
 */
import { writeFileSync } from 'node:fs';
import { PolicyActor } from '../../../src/rl/actor';
import { costsOf, type Config } from '../../../src/rl/config';
import { SwarmPolicy } from '../../../src/rl/policy';
import { scriptedOrganisation } from '../../../src/sim/baselines';
import { tasksWithCosts } from '../../../src/sim/costs';
import { runEpisodes } from '../../../src/sim/evaluate';
import { auditedSource, emptyPileCounts, pilesIdled, type PileCounts } from '../../../src/sim/pileAudit';
import { observedSource } from '../../../src/sim/actionSource';
import { emptyPathCounts, PathAudit, type PathCounts } from '../../../src/sim/pathAudit';
import { meanAndHalfWidth, pairedTimes } from '../../../src/sim/pairedTimes';
import { emptyTalkCounts, TalkAudit, type TalkCounts } from '../../../src/sim/talkAudit';
import { evaluationTasks } from '../../../src/sim/seeds';
import { useBackend } from '../../lib/backend';
import { intFlag, parseFlags, pathFlag, readCommandLine, UsageError } from '../../lib/cli';
import { requireOutput } from '../../lib/outputFolder';
import { runFileCheckpoint } from '../../lib/runfile';
import { pairedPhrase, SPEED_HEADER } from '../../lib/speed';
import { formatTable } from '../../lib/table';

const USAGE = `usage: npm run pile-audit -- --run <file.swarmrun.json.gz> [--tasks 64] [--seed <n>] [--json <file>]
  --run <file>    a run file (npm run experiment writes DIR/run-seed<n>.swarmrun.json.gz; the app exports them;
                  the shipped swarms are in public/pretrained/); its last checkpoint is played
  --tasks <n>     fresh evaluation tasks, 1-10000 (default 64, as npm run experiment evaluates)
  --seed <n>      sampling seed (default: the run's own seed, as npm run experiment evaluates it)
  --json <file>   also write every count to <file>
  --help          print this help`;

interface Options {
  run: string;
  tasks: number;
  seed?: number;
  json?: string;
}

function parseOptions(argv: string[]): Options | 'help' {
  const v = parseFlags(argv, {
    run: { type: 'string' },
    tasks: { type: 'string', default: '64' },
    seed: { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean', default: false },
  });
  if (v.help) return 'help';
  if (v.run === undefined) throw new UsageError('--run <file> is required: the run file whose swarm to audit');
  return {
    run: pathFlag('run', v.run),
    tasks: intFlag('tasks', v.tasks, 1, 10_000),
    seed: v.seed === undefined ? undefined : intFlag('seed', v.seed, 0, 2 ** 31 - 1),
    json: v.json === undefined ? undefined : pathFlag('json', v.json),
  };
}

/** One organisation's audit, as per-episode means. */
interface Audit {
  organisation: string;
  ret: number;
  duplicate: number;
  /** Working agents a message interrupted (the costs of talk), per episode. */
  interrupted: number;
  counts: PileCounts;
  /** Where the minutes to 90% went (src/sim/pathAudit.ts), summed over the episodes. */
  path: PathCounts;
  /** What its deliveries were worth (src/sim/talkAudit.ts), summed over the episodes. */
  talk: TalkCounts;
  /** Minutes to 90% of the tests on each task, in the tasks' order (null: not reached by the deadline). */
  t90s: (number | null)[];
  /** The return on each task, in the tasks' order. */
  rets: number[];
}

async function audit(name: string, source: Parameters<typeof auditedSource>[0], config: Config, tasks: number, seed: number): Promise<Audit> {
  const counts = emptyPileCounts();
  const path = new PathAudit(emptyPathCounts());
  const talk = new TalkAudit(emptyTalkCounts());
  const list = tasksWithCosts(evaluationTasks(config.family, tasks), costsOf(config));
  const audited = observedSource(auditedSource(source, counts), path, talk);
  const run = await runEpisodes(audited, list, config.agents, seed, config.tmaxEnd);
  path.finish();
  talk.finish();
  const perEpisode = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / tasks])) as unknown as PileCounts;
  const mean = (f: (s: (typeof run.stats)[number]) => number) => run.stats.reduce((a, s) => a + f(s), 0) / tasks;
  return {
    organisation: name,
    ret: mean((s) => s.ret),
    duplicate: mean((s) => s.metrics.duplicate),
    interrupted: mean((s) => s.metrics.interrupted),
    counts: perEpisode,
    path: path.counts,
    talk: talk.counts,
    t90s: run.stats.map((s) => s.t90),
    rets: run.stats.map((s) => s.ret),
  };
}

/** What the piles are worth: the same swarm, tasks and sampling seed, its piles played as idle minutes. */
interface PilesWorth {
  ret: number;
  /** Its return less the swarm's, task by task: the mean and half its 95% interval. */
  meanDiff: number;
  halfWidth: number;
  duplicate: number;
  idle: number;
  interrupted: number;
  /** Agent-minutes per episode turned from a pile into an idle minute. */
  turned: number;
}

async function pilesWorth(policy: SwarmPolicy, config: Config, tasks: number, seed: number, swarm: Audit): Promise<PilesWorth> {
  const turned = { minutes: 0 };
  const list = tasksWithCosts(evaluationTasks(config.family, tasks), costsOf(config));
  const run = await runEpisodes(pilesIdled(new PolicyActor(policy, seed), turned), list, config.agents, seed, config.tmaxEnd);
  const mean = (f: (s: (typeof run.stats)[number]) => number) => run.stats.reduce((a, s) => a + f(s), 0) / tasks;
  return {
    ret: mean((s) => s.ret),
    ...meanAndHalfWidth(run.stats.map((s, i) => s.ret - swarm.rets[i])),
    duplicate: mean((s) => s.metrics.duplicate),
    idle: mean((s) => s.metrics.idle),
    interrupted: mean((s) => s.metrics.interrupted),
    turned: turned.minutes / tasks,
  };
}

/** What the interval says: whether the team's return can tell the piles from idling, and which way. */
function pilesVerdict(w: PilesWorth): string {
  if (w.meanDiff - w.halfWidth > 0) return 'Idling instead would have paid: the piles cost the team that much of its return.';
  if (w.meanDiff + w.halfWidth < 0) return 'The piles paid: idling instead would have cost the team that much of its return.';
  return 'The interval holds 0: on these tasks the return cannot tell the piles from idling (more --tasks narrow it).';
}

const share = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(0)}%` : '-');

async function main(): Promise<void> {
  const o = readCommandLine('pile-audit', USAGE, parseOptions);
  if (o.json) requireOutput('pile-audit', 'json', o.json, 'file');
  let checkpoint: ReturnType<typeof runFileCheckpoint>;
  try {
    checkpoint = runFileCheckpoint(o.run);
  } catch (e) {
    console.error(`pile-audit: --run: ${(e as Error).message}`);
    process.exit(2);
  }
  const c = checkpoint.config;
  if (c.structure !== 'flat') {
    console.error(`pile-audit: --run: ${o.run} trained the ${c.structure} structure; the audit counts flat teams only`);
    process.exit(2);
  }
  await useBackend('wasm');
  let policy: SwarmPolicy;
  try {
    policy = SwarmPolicy.fromJSON(checkpoint.weights);
  } catch (e) {
    console.error(`pile-audit: --run: ${o.run} holds no usable policy: ${(e as Error).message}`);
    process.exit(2);
  }
  const seed = o.seed ?? c.seed;
  console.log(
    `${checkpoint.name}: ${c.family}, ${c.agents} agents, the checkpoint of update ${checkpoint.updates}; ${o.tasks} fresh tasks at ${c.tmaxEnd} minutes under the run's rules, sampling seed ${seed}\n`,
  );
  const audits = [
    await audit('trained swarm', new PolicyActor(policy, seed), c, o.tasks, seed),
    await audit('scripted organisation', scriptedOrganisation, c, o.tasks, seed),
  ];
  const worth = await pilesWorth(policy, c, o.tasks, seed, audits[0]);
  policy.dispose();
  const f = (x: number) => x.toFixed(1);
  console.log('Open modules with a claimant, module-minutes per episode:');
  console.log(
    formatTable(
      [
        'organisation',
        'return',
        'claimant alone',
        'claimant + others',
        'others, not the claimant',
        'nobody (claimant could)',
        'nobody (claimant blocked)',
        'unclaimed, worked',
      ],
      audits.map((a) => [
        a.organisation,
        a.ret.toFixed(3),
        f(a.counts.ownerAlone),
        f(a.counts.ownerWithOthers),
        f(a.counts.othersWithoutOwner),
        f(a.counts.stalledWorkable),
        f(a.counts.stalledBlocked),
        f(a.counts.unclaimedWorked),
      ]),
    ),
  );
  console.log('\nDuplicate work (agent-minutes per episode) by what the redundant agent could have worked instead:');
  console.log(
    formatTable(
      ['organisation', 'duplicate', 'its own claimed module', 'its claims all blocked', 'no claim: a free module', 'no claim: nothing open to it'],
      audits.map((a) => {
        const r = a.counts;
        return [
          a.organisation,
          f(r.redundant),
          `${f(r.redundantOwnWorkable)} (${share(r.redundantOwnWorkable, r.redundant)})`,
          `${f(r.redundantOwnBlocked)} (${share(r.redundantOwnBlocked, r.redundant)})`,
          `${f(r.redundantFreeWorkable)} (${share(r.redundantFreeWorkable, r.redundant)})`,
          `${f(r.redundantNothing)} (${share(r.redundantNothing, r.redundant)})`,
        ];
      }),
    ),
  );
  const swarm = audits[0].counts;
  const idleInstead = swarm.redundantOwnBlocked + swarm.redundantNothing;
  console.log(
    `\nOf the swarm's duplicate minutes, ${share(idleInstead, swarm.redundant)} were taken by agents with no module they could have worked instead (they waited by piling on), ${share(swarm.redundantOwnWorkable + swarm.redundantFreeWorkable, swarm.redundant)} by agents that left workable work undone.`,
  );
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(4)}`;
  console.log(
    `\nWhat the piles are worth to the team's return: the same swarm on the same tasks and sampling seed, every minute each pile's other agents idling instead (the agent whose minute counts keeps working), returns ${worth.ret.toFixed(3)} against ${audits[0].ret.toFixed(3)}: ${signed(worth.meanDiff)}, 95% interval ${signed(worth.meanDiff - worth.halfWidth)} to ${signed(worth.meanDiff + worth.halfWidth)} task by task, with ${f(worth.duplicate)} duplicate and ${f(worth.idle)} idle agent-minutes an episode (${f(worth.turned)} turned from piles) and ${f(worth.interrupted)} working agents interrupted by a message (the swarm's own: ${f(audits[0].interrupted)}). ${pilesVerdict(worth)}`,
  );
  console.log(
    `\nMinutes to 90% of the tests, against a bound no team can beat (every module starting the minute it is ready and never stalling; under the handoff rule all but one of a module's dependents a minute later), and where the minutes went:`,
  );
  console.log(
    formatTable(
      [
        'organisation',
        'min to 90% (reaching)',
        'bound there',
        'late starts (min/module)',
        'stalled min/episode',
        'of them: its mover on it, the minute lost (interrupted, merge)',
        'its mover sent a DM',
        'posted',
        'read',
        'claimed',
        'worked another module',
        'idled',
      ],
      audits.map((a) => {
        const p = a.path;
        const per = (x: number) => f(x / p.rollouts);
        return [
          a.organisation,
          p.reached > 0 ? `${(p.t90 / p.reached).toFixed(1)} (${share(p.reached, p.rollouts)})` : '-',
          p.reached > 0 ? (p.bound90 / p.reached).toFixed(1) : '-',
          p.started > 0 ? (p.startDelay / p.started).toFixed(2) : '-',
          per(p.stallLost + p.stallDm + p.stallPost + p.stallRead + p.stallClaim + p.stallOther + p.stallIdle),
          per(p.stallLost),
          per(p.stallDm),
          per(p.stallPost),
          per(p.stallRead),
          per(p.stallClaim),
          per(p.stallOther),
          per(p.stallIdle),
        ];
      }),
    ),
  );
  const paired = pairedTimes(audits[0].t90s, audits[1].t90s);
  console.log(`\n${SPEED_HEADER}\n  ${pairedPhrase(paired)}`);
  console.log(
    `\nDeliveries per episode: "built on" when the receiver went on to work a module that needs an interface the delivery brought it (stricter than the needed deliveries of npm run experiment, which count any interface an unfinished module needs):`,
  );
  console.log(
    formatTable(
      [
        'organisation',
        'DMs',
        'built on',
        'brought something never built on',
        'brought nothing new',
        'sent right after a minute on an open module',
        'reads',
        'reads built on',
      ],
      audits.map((a) => {
        const t = a.talk;
        const per = (x: number) => f(x / t.rollouts);
        return [
          a.organisation,
          per(t.dms),
          `${per(t.dmsUsed)} (${share(t.dmsUsed, t.dms)})`,
          per(t.dms - t.dmsUsed - t.dmsNothingNew),
          per(t.dmsNothingNew),
          per(t.dmsMidModule),
          per(t.reads),
          per(t.readsUsed),
        ];
      }),
    ),
  );
  if (o.json) {
    writeFileSync(
      o.json,
      `${JSON.stringify({ run: o.run, name: checkpoint.name, updates: checkpoint.updates, config: c, tasks: o.tasks, seed, audits, paired, pilesIdled: worth }, null, 2)}\n`,
    );
    console.log(`wrote ${o.json}`);
  }
}

void main();
