// Builds results/headline/default-sprint.json from `npm run experiment` output folders, one per seed:
//   node results/headline/extract-experiment.mjs results/headline/default-sprint.json DIR1 DIR2 DIR3
// Each seed keeps its evaluation rows (curves left out) and the ratios docs/RESULTS.md quotes.
import { readFileSync, writeFileSync } from 'node:fs';
const [out, ...dirs] = process.argv.slice(2);
const seeds = [];
for (const d of dirs) {
  const s = JSON.parse(readFileSync(`${d}/summary.json`, 'utf8'));
  const x = s.results[0];
  const names = { random: 'random', 'single chain': 'chain', 'best-of-N': 'bestOfN', 'scripted organisation': 'organisation', 'trained swarm': 'swarm', 'trained swarm, muted': 'muted' };
  const rows = Object.fromEntries(x.orgs.map(({ curve, t90s, ...o }) => [names[o.org], o]));
  const sw = rows.swarm, org = rows.organisation, mu = rows.muted;
  seeds.push({
    seed: x.seed,
    trainSeconds: x.trainSeconds,
    rows,
    derived: {
      returnBehindOrganisation: org.ret - sw.ret,
      duplicateShare: sw.duplicate / sw.useful,
      messagesOverOrganisation: sw.messages / org.messages,
      mutingCost: sw.ret - mu.ret,
      overChain: sw.ret - rows.chain.ret,
      overBestOfN: sw.ret - rows.bestOfN.ret,
    },
  });
}
const cfg = JSON.parse(readFileSync(`${dirs[0]}/summary.json`, 'utf8'));
writeFileSync(out, JSON.stringify({ command: 'npm run experiment -- --agents 8 --seeds S --threads 2 --quiet --out DIR (S = 1, 2, 3)', family: cfg.config.family, updates: cfg.config.updates, tmaxStart: cfg.config.tmaxStart, tmaxEnd: cfg.config.tmaxEnd, evalTasks: cfg.evalTasks, seeds }, null, 2) + '\n');
