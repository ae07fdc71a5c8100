/** What `npm run experiment` keeps of one seed: the shape shared by the training (run.ts), the queue (queue.ts) and the output folder. */
import type { OrgSummary } from '../../../src/rl/compare';
import type { UpdateMetrics } from '../../../src/rl/metrics';

/** One seed's outcome, as the summary and the folder's record keep it. */
export interface SeedResult {
  seed: number;
  trainSeconds: number;
  updatesPerSecond: number;
  curve: UpdateMetrics[];
  orgs: OrgSummary[];
}
