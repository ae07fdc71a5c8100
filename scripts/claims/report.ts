/**
 * The claims' reports: the context a claim evaluates in (cached runs, memoised reference
 * organisations), one markdown page per claim and the summary `<out>/README.md`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareOrganisations } from '../../src/rl/compare';
import { evaluationTasks } from '../../src/sim/seeds';
import { costsOf, type Config } from '../../src/rl/config';
import { tasksWithCosts, type SprintCosts } from '../../src/sim/costs';
import { scriptedOrganisation, singleChain } from '../../src/sim/baselines';
import { mean, runEpisodes, summariseWork, type WorkSummary } from '../../src/sim/evaluate';
import { raceHorizon, raceOrganisations } from '../../src/sim/race';
import type { Family } from '../../src/sim/task';
import { formatDuration } from '../lib/progress';
import { CLAIM_IDS, CLAIMS, CONDITIONS, type Baseline, type ClaimContext, type ClaimReport, type ConditionRun } from './definitions';
import { RULES_TEXT, type Verdict } from './rules';
import { claimCommand, type Scale, type ScaleName } from './scale';
import type { ConditionStore } from './conditionStore';

/** The context claims evaluate in: cached runs plus memoised reference organisations. */
export class Context implements ClaimContext {
  readonly seeds: number[];
  readonly scale: ClaimContext['scale'];
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: ConditionStore,
    private readonly loaded: Map<string, ConditionRun[]>,
  ) {
    this.seeds = store.scale.seeds;
    this.scale = { name: store.scale.name, evalTasks: store.scale.evalTasks, checkpointTasks: store.scale.checkpointTasks };
  }

  config(id: string): Config {
    return this.store.config(id);
  }

  runs(id: string): ConditionRun[] {
    const r = this.loaded.get(id);
    if (!r) throw new Error(`condition ${id} was not run`);
    return r;
  }

  private once<T>(key: string, f: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, f());
    return this.memo.get(key) as Promise<T>;
  }

  baselines(id: string): Promise<Baseline[]> {
    const c = this.config(id);
    // The reference organisations play under the condition's costs of talk, as its swarm does.
    const costs = costsOf(c);
    return this.once(`base:${c.family}:${c.agents}:${c.tmaxEnd}:${JSON.stringify(costs)}`, async () => {
      const out: Baseline[] = [];
      for (const seed of this.seeds) {
        const orgs = await compareOrganisations({ family: c.family, agents: c.agents, tmax: c.tmaxEnd, tasks: this.scale.evalTasks, seed, costs });
        const race = await raceOrganisations({
          tasks: tasksWithCosts(evaluationTasks(c.family, this.scale.evalTasks), costs),
          agents: c.agents,
          horizon: raceHorizon(c.tmaxEnd),
          seed,
        });
        out.push({ orgs, race });
      }
      return out;
    });
  }

  reference(family: Family, agents: number, tmax: number, seed: number, costs?: SprintCosts): Promise<{ chain: WorkSummary; scripted: WorkSummary }> {
    return this.once(`ref:${family}:${agents}:${tmax}:${seed}:${JSON.stringify(costs ?? null)}`, async () => {
      const tasks = tasksWithCosts(evaluationTasks(family, this.scale.checkpointTasks), costs);
      const chain = summariseWork((await runEpisodes(singleChain, tasks, agents, seed, tmax)).stats, agents);
      const scripted = summariseWork((await runEpisodes(scriptedOrganisation, tasks, agents, seed, tmax)).stats, agents);
      return { chain, scripted };
    });
  }
}

function mdTable(header: string[], rows: string[][]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [`| ${header.map(esc).join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

export const VERDICT_MARK: Record<Verdict, string> = { reproduced: 'reproduced', partly: 'partly reproduced', 'not reproduced': 'not reproduced' };

/** The markdown page of one claim. */
export function renderReport(r: ClaimReport, scale: Scale, store: ConditionStore, runs: Map<string, ConditionRun[]>): string {
  const lines = [
    `# ${r.id}: ${r.title}`,
    '',
    `**Claim.** ${r.statement}`,
    '',
    `**Verdict: ${VERDICT_MARK[r.verdict]}** (scale \`${scale.name}\`, seeds ${scale.seeds.join(', ')}).`,
    '',
  ];
  lines.push('```sh', claimCommand(r.id, scale), '```', '');
  if (r.conditions.length) {
    lines.push('## Training conditions', '');
    const rows = r.conditions.map((id) => {
      const c = store.config(id);
      const secs = (runs.get(id) ?? []).map((x) => x.trainSeconds);
      return [
        `\`${id}\``,
        CONDITIONS[id].label,
        c.family,
        String(c.agents),
        String(c.prior ? `${c.prior} + ${c.updates}` : c.updates),
        `${c.tmaxStart} -> ${c.tmaxEnd}`,
        secs.length ? formatDuration(mean(secs)) : '-',
      ];
    });
    lines.push(mdTable(['condition', 'what', 'family', 'agents', 'updates', 'deadline', 'training time per seed'], rows), '');
  }
  lines.push('## Results', '');
  for (const t of r.tables) lines.push(t.caption, '', mdTable(t.header, t.rows), '');
  lines.push(
    '## Verdict by part',
    '',
    mdTable(
      ['part', 'rule', 'measured (mean ± sd over seeds; per seed)', 'outcome'],
      r.parts.map((p) => [p.name, p.rule, p.numbers, p.outcome]),
    ),
    '',
    RULES_TEXT,
    '',
  );
  if (r.plots.length) {
    lines.push('## Plots', '');
    for (const p of r.plots) lines.push(`![${p.caption}](${p.file})`, '', `*${p.caption}*`, '');
  }
  if (r.notes.length) lines.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}

/** What `verdict.json` holds for one claim. */
export interface VerdictFile {
  id: string;
  verdict: Verdict;
  parts: { outcome: string }[];
  /** Scale and seeds of the run that wrote it (absent in files written before `--seeds`). */
  scale?: ScaleName;
  seeds?: number[];
}

/**
 * Rewrites `<out>/README.md` from the verdicts of every claim folder present. It names the scale, the
 * seeds and the command; a claim whose verdict was measured on other seeds than `scale`'s says so.
 */
export function writeSummary(out: string, scale: Scale): string {
  const rows: string[][] = [];
  for (const id of CLAIM_IDS) {
    const f = join(out, id, 'verdict.json');
    if (!existsSync(f)) {
      rows.push([id, CLAIMS.find((c) => c.id === id)!.title, 'pending (not run into this folder)', '']);
      continue;
    }
    const v = JSON.parse(readFileSync(f, 'utf8')) as VerdictFile;
    const other = v.seeds && v.seeds.join(',') !== scale.seeds.join(',') ? ` (seeds ${v.seeds.join(', ')})` : '';
    rows.push([`[${id}](${id}/README.md)`, CLAIMS.find((c) => c.id === id)!.title, VERDICT_MARK[v.verdict] + other, v.parts.map((p) => p.outcome).join(', ')]);
  }
  const text = [
    `# Claims (scale \`${scale.name}\`, seeds ${scale.seeds.join(', ')})`,
    '',
    'Each claim is run with `' + claimCommand('<id>', scale) + '`; see docs/EXPERIMENTS.md.',
    '',
    mdTable(['claim', 'statement', 'verdict', 'parts'], rows),
    '',
    RULES_TEXT,
    '',
  ].join('\n');
  writeFileSync(join(out, 'README.md'), text);
  return text;
}
