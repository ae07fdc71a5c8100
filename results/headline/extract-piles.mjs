// Builds results/headline/piles-idled.json from `npm run pile-audit -- --json` files, one per seed:
//   node results/headline/extract-piles.mjs results/headline/piles-idled.json FILE1 FILE2 FILE3
// Each seed keeps the swarm's return and duplicate work, and what the same swarm returns with its
// piles played as idle minutes (the per-task lists left out).
import { readFileSync, writeFileSync } from 'node:fs';
const [out, ...files] = process.argv.slice(2);
const seeds = files.map((f) => {
  const a = JSON.parse(readFileSync(f, 'utf8'));
  const swarm = a.audits.find((x) => x.organisation === 'trained swarm');
  return {
    seed: a.seed,
    tasks: a.tasks,
    updates: a.updates,
    swarm: { ret: swarm.ret, duplicate: swarm.duplicate, interrupted: swarm.interrupted },
    pilesIdled: a.pilesIdled,
    // The 95% interval of the task-by-task difference (idled less the swarm's own).
    interval: [a.pilesIdled.meanDiff - a.pilesIdled.halfWidth, a.pilesIdled.meanDiff + a.pilesIdled.halfWidth],
  };
});
const command = 'npm run pile-audit -- --run DIR/run-seedS.swarmrun.json.gz --tasks 4096 --json FILE (S = 1, 2, 3)';
writeFileSync(out, JSON.stringify({ command, seeds }, null, 2) + '\n');
