/**
 * Every command of the command line, by concern: its name, its file (scripts/commands/<concern>/<name>.ts),
 * what it does in one line and its `npm run` script. `npm run swarm` lists them and runs one by name;
 * the import check (`npm run import-cycles`) refuses a test or a library module that imports one.
 * A new command is a file in its concern's folder plus an entry here (CONTRIBUTING.md).
 */

/** The folders of scripts/commands, in the order the list shows them, with their heading. */
export const CONCERNS = {
  experiments: 'Experiments: train, race and audit the swarm',
  sweeps: 'Sweeps: training runs on a BullMQ queue',
  bench: 'Benchmarks: speed and responsiveness',
  checks: 'Checks and tools for the code itself',
} as const;

export type Concern = keyof typeof CONCERNS;

/** One command. */
export interface Command {
  /** The name `npm run swarm -- <name>` takes, and the file name in its concern's folder. */
  name: string;
  concern: Concern;
  /** What it does, one line. */
  summary: string;
  /** Its script in package.json, where it has one (`npm run <npm>`). */
  npm?: string;
  /** Started by another command, not by hand. */
  internal?: true;
}

export const COMMANDS: readonly Command[] = [
  {
    name: 'experiment',
    concern: 'experiments',
    npm: 'experiment',
    summary: 'train the swarm on a setting and seeds and compare it with the organisations; --claim: the claims C1..C9',
  },
  { name: 'pretrain', concern: 'experiments', npm: 'pretrain', summary: 'train the pretrained swarms the app ships (public/pretrained/)' },
  { name: 'race', concern: 'experiments', npm: 'race', summary: 'race the organisations (and a trained swarm) to 90% of the tests at equal agent-minutes' },
  { name: 'pile-audit', concern: 'experiments', npm: 'pile-audit', summary: "where a trained swarm's duplicate work and its minutes to 90% go" },
  {
    name: 'side-board',
    concern: 'experiments',
    npm: 'side-board',
    summary: 'does the swarm find the unofficial board, and does a monitor make it stop? off, open and monitored, seed by seed',
  },
  {
    name: 'audit-log',
    concern: 'experiments',
    npm: 'audit-log',
    summary: "a recorded episode's audit log: every message and attempt, allowed, blocked or caught (CSV or JSONL)",
  },
  {
    name: 'calibrate',
    concern: 'experiments',
    npm: 'calibrate',
    summary: "how a task family's deadline binds: the reference organisations at chosen deadlines",
  },
  {
    name: 'lesson-check',
    concern: 'experiments',
    npm: 'lesson:check',
    summary: "does the lesson say what the class will see? trains each step's setup and checks its claims",
  },
  { name: 'train-one', concern: 'experiments', internal: true, summary: 'one claims run in a child process (started by experiment --claim --jobs N)' },
  { name: 'sweep-worker', concern: 'sweeps', npm: 'sweep-worker', summary: 'serve the training runs that experiment --queue puts on a queue' },
  { name: 'sweep-status', concern: 'sweeps', npm: 'sweep-status', summary: 'what a sweep queue holds now: runs done, running, waiting and failed' },
  {
    name: 'sweep-fault-timeline',
    concern: 'sweeps',
    npm: 'sweep-fault-timeline',
    summary: "the timeline of the queue's worker-death fault, measured on this machine",
  },
  {
    name: 'queue-vs-jobs',
    concern: 'sweeps',
    npm: 'queue-vs-jobs',
    summary: 'one claim trained with --jobs and on the queue: are the results identical, and how long each took',
  },
  { name: 'bench', concern: 'bench', npm: 'bench', summary: 'speed: the simulator, a training update per TF.js backend, the policy matmuls' },
  {
    name: 'bench-ui',
    concern: 'bench',
    npm: 'bench:ui',
    summary: 'responsiveness of the page while it trains, in headless Chromium (--learn, --lesson, --soak)',
  },
  {
    name: 'bench-learn',
    concern: 'bench',
    npm: 'bench:learn',
    summary: 'time to coordination: training seconds until the swarm meets src/sim/coordination.ts (its return, split of the work and talk)',
  },
  { name: 'bench-policy', concern: 'bench', npm: 'bench:policy', summary: "the policy's gradient step three ways, side by side on the same rows" },
  { name: 'soak-ui', concern: 'bench', summary: 'soak: the page trains for minutes with every view live, its memory and timing sampled' },
  { name: 'eta-check', concern: 'bench', summary: "how honest the progress bar's time left is (reads an experiment's terminal output)" },
  {
    name: 'text-size',
    concern: 'checks',
    npm: 'text-size',
    summary: 'presenter mode from the back row: the smallest rendered text in each view and lesson step',
  },
  { name: 'build-kernels', concern: 'checks', npm: 'build:kernels', summary: "assemble the learn step's wasm kernels into src/rl/wasmKernelsBinary.ts" },
  { name: 'update-memory', concern: 'checks', summary: "the memory one training update takes, beside the settings check's estimate" },
  { name: 'import-cycles', concern: 'checks', npm: 'import-cycles', summary: 'import cycles in src, scripts and e2e, and imports of a command file' },
  { name: 'results', concern: 'checks', npm: 'results', summary: "docs/RESULTS.md's marked figures against the JSON files they come from (--check, --write)" },
];

/** A command's file, relative to the repository root. */
export function commandFile(c: Command): string {
  return `scripts/commands/${c.concern}/${c.name}.ts`;
}

/** The command `name` names: its own name or its npm script's (`bench:ui`), or undefined. */
export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name || c.npm === name);
}

/** The list `npm run swarm -- --help` prints: every command by concern, with its one line. */
export function commandList(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  const lines = ['usage: npm run swarm -- <command> [flags]', '       npm run swarm -- <command> --help   (the flags of that command)'];
  for (const [concern, heading] of Object.entries(CONCERNS)) {
    lines.push('', `${heading} (scripts/commands/${concern}/)`);
    for (const c of COMMANDS.filter((c) => c.concern === concern)) lines.push(`  ${c.name.padEnd(width)}${c.internal ? '(internal) ' : ''}${c.summary}`);
  }
  const renamed = COMMANDS.filter((c) => c.npm && c.npm !== c.name).map((c) => `${c.name} as ${c.npm}`);
  lines.push('', `A command with an npm script runs as \`npm run <script> -- [flags]\` too: its name, except ${renamed.join(', ')}.`);
  return lines.join('\n');
}
