/**
 * The three organisations raced to an acceptable result from the command line: the single chain,
 * best-of-N, the scripted (communicating) organisation and, given a run file or policy, the trained
 * swarm, on one task family at the same agent-minutes. Prints minutes to the threshold per
 * organisation, then the same against the number of agents. The app's "Three ways to organise"
 * panel shows the same numbers.
 *
 *   npm run race -- [--family long-coupled] [--agents 8] [--threshold 0.9] [--horizon minutes, default 3 x the final deadline] [--tasks 32]
 *                   [--swarm run-seed1.swarmrun.json.gz | policy-seed1.json] [--scaling 1,2,4,8,16]
 *
 * With a run file as --swarm, the family and the number of agents default to the run's own, and the
 * horizon to three times the run's final deadline (on another family: that family's), as the app races it.
 */
import { readFileSync } from 'node:fs';
import { PolicyActor } from '../../../src/rl/actor';
import { SwarmPolicy } from '../../../src/rl/policy';
import { raceHorizon, raceOrganisations, scaleOrganisations, type TimeSummary } from '../../../src/sim/race';
import { defaultConfig, type Config } from '../../../src/rl/config';
import { calibratedSchedule, FAMILIES, MAX_AGENTS, type Family } from '../../../src/sim/task';
import { useBackend } from '../../lib/backend';
import { choiceFlag, intFlag, intListFlag, numberFlag, parseFlags, pathFlag, readCommandLine } from '../../lib/cli';
import { runFileCheckpoint } from '../../lib/runfile';
import { formatTable } from '../../lib/table';

const USAGE = `usage: npm run race -- [--family ${FAMILIES.join('|')}] [--agents 1-${MAX_AGENTS}] [--threshold 0-1] [--horizon minutes] [--tasks n]
                      [--swarm <run file or policy JSON>] [--scaling 1,2,4,8,16]`;

interface Options {
  /** null: the swarm's own family (a run file), else the default. */
  family: Family | null;
  /** null: the swarm's own team size (a run file), else 8. */
  agents: number | null;
  threshold: number;
  /** null: 3 x the family's final deadline. */
  horizon: number | null;
  tasks: number;
  swarm: string | null;
  scaling: number[];
}

function parseOptions(argv: string[]): Options | 'help' {
  const values = parseFlags(argv, {
    family: { type: 'string' },
    agents: { type: 'string' },
    threshold: { type: 'string', default: '0.9' },
    horizon: { type: 'string' },
    tasks: { type: 'string', default: '32' },
    swarm: { type: 'string' },
    scaling: { type: 'string', default: '1,2,4,8,16' },
    help: { type: 'boolean', default: false },
  });
  if (values.help) return 'help';
  return {
    family: values.family === undefined ? null : choiceFlag('family', values.family, FAMILIES),
    agents: values.agents === undefined ? null : intFlag('agents', values.agents, 1, MAX_AGENTS),
    threshold: numberFlag('threshold', values.threshold, { kind: 'float', min: 0.01, max: 1 }),
    horizon: values.horizon === undefined ? null : intFlag('horizon', values.horizon, 1, 1000),
    tasks: intFlag('tasks', values.tasks, 1, 1000),
    swarm: values.swarm === undefined ? null : pathFlag('swarm', values.swarm, 'a run file or policy JSON'),
    scaling: intListFlag('scaling', values.scaling, 1, MAX_AGENTS),
  };
}

/** The swarm's weights, and the run's settings when it is a run file. */
function loadSwarm(path: string): { policy: SwarmPolicy; config: Config | null } {
  try {
    if (path.endsWith('.gz')) {
      const c = runFileCheckpoint(path);
      return { policy: SwarmPolicy.fromJSON(c.weights), config: c.config };
    }
    return { policy: SwarmPolicy.fromJSON(JSON.parse(readFileSync(path, 'utf8'))), config: null };
  } catch (e) {
    console.error(`race: --swarm ${path}: ${(e as Error).message}`);
    process.exit(2);
  }
}

const minutes = (t: TimeSummary) => (t.median === null ? 'not reached' : `${t.median.toFixed(1)}`);
const spread = (t: TimeSummary) => (t.q25 === null || t.q75 === null ? '-' : `${t.q25.toFixed(1)}-${t.q75.toFixed(1)}`);

async function main(): Promise<void> {
  const o = readCommandLine('race', USAGE, parseOptions);
  await useBackend('wasm');
  const loaded = o.swarm ? loadSwarm(o.swarm) : null;
  const policy = loaded?.policy ?? null;
  // A run file's swarm races on its own family and team size unless told otherwise.
  const family = o.family ?? loaded?.config?.family ?? defaultConfig().family;
  const agents = o.agents ?? loaded?.config?.agents ?? 8;
  // As the app races it: three times the final deadline the swarm trained for (a run file on its own
  // family), else the family's calibrated one.
  const ownDeadline = loaded?.config && loaded.config.family === family ? loaded.config.tmaxEnd : null;
  const horizon = o.horizon ?? raceHorizon(ownDeadline ?? calibratedSchedule(family).end);
  const common = { tasks: family, threshold: o.threshold, horizon, count: o.tasks, seed: 1 };
  const t0 = performance.now();
  const race = await raceOrganisations({ ...common, agents, swarm: policy ? new PolicyActor(policy, 1) : undefined });
  const own =
    loaded?.config && (o.family === null || o.agents === null)
      ? ` (${[o.family === null ? 'family' : '', o.agents === null ? 'agents' : ''].filter(Boolean).join(' and ')} of the swarm's run)`
      : '';
  console.log(
    `${family} tasks, ${agents} agents${own}, ${o.tasks} tasks each; acceptable = ${Math.round(o.threshold * 100)}% of the tests; the same ${agents * horizon} agent-minutes for everyone`,
  );
  console.log(
    formatTable(
      [
        'organisation',
        'agents',
        'minutes allowed',
        `median minutes to ${Math.round(o.threshold * 100)}%`,
        'middle half',
        'tasks reached',
        'agent-minutes used',
      ],
      race.map((r) => [
        r.org,
        String(r.parallel),
        String(r.horizon),
        minutes(r.time),
        spread(r.time),
        `${Math.round(r.time.reached * 100)}%`,
        r.compute === null ? '-' : String(Math.round(r.compute)),
      ]),
    ),
  );
  const scaling = await scaleOrganisations({ ...common, agentCounts: o.scaling, swarm: policy ? () => new PolicyActor(policy, 1) : undefined });
  const orgs = [...new Set(scaling.map((p) => p.org))];
  console.log(`\nmedian minutes to ${Math.round(o.threshold * 100)}% against the number of agents`);
  console.log(
    formatTable(
      ['organisation', ...o.scaling.map((n) => `${n} agents`)],
      orgs.map((org) => [org, ...o.scaling.map((n) => minutes(scaling.find((p) => p.org === org && p.agents === n)!.time))]),
    ),
  );
  console.log(`\n(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

void main();
