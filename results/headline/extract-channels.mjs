// Builds results/headline/channels-hub.json from an `npm run experiment -- --channels hub` output folder:
//   node results/headline/extract-channels.mjs results/headline/channels-hub.json DIR
// Per seed: the trained swarm's attempts per episode at the first and last RLCR update (its training
// rollouts) and on the evaluation tasks, and the return and attempts of the swarm and the scripted organisation.
import { readFileSync, writeFileSync } from 'node:fs';
const [out, dir] = process.argv.slice(2);
const s = JSON.parse(readFileSync(`${dir}/summary.json`, 'utf8'));
const seeds = s.results.map((x) => {
  const rlcr = x.curve.filter((m) => m.phase === 'rlcr');
  const org = (name) => {
    const o = x.orgs.find((r) => r.org === name);
    return { ret: o.ret, attempts: o.attempts, messages: o.messages, duplicate: o.duplicate, useful: o.useful };
  };
  return {
    seed: x.seed,
    attemptsFirst: rlcr[0].attempts,
    attemptsLast: rlcr[rlcr.length - 1].attempts,
    swarm: org('trained swarm'),
    organisation: org('scripted organisation'),
  };
});
writeFileSync(out, JSON.stringify({ command: `npm run experiment -- --channels ${s.config.channels} --seeds 1,2,3 --quiet --out DIR`, family: s.config.family, channels: s.config.channels, seeds }, null, 2) + '\n');
