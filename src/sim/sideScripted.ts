import { A_DM, A_POST } from './actions';
import type { ActionSource } from './actionSource';
import { scriptedOrganisation } from './baselines';

/**
 * The scripted organisation with its talk moved onto the unofficial board (sim/channels.ts): every
 * DM and post it would send becomes a post there (a DM to itself), reaching every teammate at once
 * and interrupting nobody. What the board is worth to a team that talks as well as we can script:
 * `npm run side-board` plays it beside the swarms. Without an unofficial board its posts are wasted
 * minutes, so play it only where the board is open.
 */
export const scriptedOnSideBoard: ActionSource = {
  name: 'scripted organisation, on the unofficial board',
  act(env, out) {
    scriptedOrganisation.act(env, out);
    for (let r = 0; r < out.length; r++) if ((out[r] >= A_DM && out[r] < A_POST) || out[r] === A_POST) out[r] = A_DM + (r % env.N);
  },
};
