import type { OrgSummary } from '../../src/rl/compare';
import { mean } from '../../src/sim/evaluate';

/**
 * What the swarm's talk is worth, per seed: the trained swarm's return minus the same swarm's with
 * its DMs, posts and reads masked ("trained swarm, muted"), and the share of its deliveries that
 * brought the receiver an interface it needed. Null without a trained swarm.
 */
export function talkSummary(results: readonly { seed: number; orgs: readonly OrgSummary[] }[]): string | null {
  const pairs = results.map((r) => ({
    seed: r.seed,
    on: r.orgs.find((o) => o.org === 'trained swarm'),
    off: r.orgs.find((o) => o.org === 'trained swarm, muted'),
  }));
  if (pairs.some((p) => !p.on || !p.off)) return null;
  const gains = pairs.map((p) => p.on!.ret - p.off!.ret);
  const sign = (x: number) => `${x >= 0 ? '+' : '-'}${Math.abs(x).toFixed(3)}`;
  const shares = pairs.map((p) => p.on!.neededShare);
  return (
    `Talk is worth ${sign(mean(gains))} of the tests (trained swarm - trained swarm, muted; per seed ${pairs.map((p, i) => `${p.seed}: ${sign(gains[i])}`).join(', ')}); ` +
    `${(100 * mean(shares)).toFixed(0)}% of its deliveries (DMs and reads) brought the receiver an interface it needed.`
  );
}
