/**
 * Who may talk where (docs/ENGINE.md, "Channels"). A channel policy is part of the sprint's rules:
 * it says who may DM whom and who may post to and read the board. A message the policy does not
 * allow is an *attempt*: it costs its sender the minute, delivers nothing, and is counted and logged.
 * The policy never masks an action: a swarm can try any channel, and the rules, not the mask, stop it.
 *
 * - `open`: everyone may DM everyone, post and read (the flat swarm; within each island under islands);
 * - `hub`: DMs only to or from agent 0 (the CEO, the orchestrator); everyone posts and reads;
 * - `command`: DMs only to or from agent 0, and only agent 0 posts; everyone reads;
 * - `board`: no DMs; everyone posts and reads.
 */
export const CHANNEL_POLICIES = ['open', 'hub', 'command', 'board'] as const;
export type ChannelPolicy = (typeof CHANNEL_POLICIES)[number];

/** The setting: a structure's own policy (`preset`) or one of the policies for any structure. */
export const CHANNEL_SETTINGS = ['preset', ...CHANNEL_POLICIES] as const;
export type ChannelSetting = (typeof CHANNEL_SETTINGS)[number];

/** The organisation presets (sim/structure.ts STRUCTURES; named here so the rules import no structure). */
type Preset = 'flat' | 'ceo' | 'islands' | 'orchestrator';

/** Each organisation preset's natural policy. */
export const PRESET_CHANNELS: Record<Preset, ChannelPolicy> = {
  flat: 'open',
  ceo: 'hub',
  // Each island plays in its own rollout: an island's agents can reach only each other, all of them.
  islands: 'open',
  orchestrator: 'hub',
};

/** The policy a run plays under: the setting, or its structure's own for `preset`. */
export function channelPolicyOf(setting: ChannelSetting, structure: Preset): ChannelPolicy {
  return setting === 'preset' ? PRESET_CHANNELS[structure] : setting;
}

/** Index of a policy in CHANNEL_POLICIES (how the environment stores it per rollout). */
export function channelIndex(p: ChannelPolicy | undefined): number {
  return p === undefined ? 0 : CHANNEL_POLICIES.indexOf(p);
}

/** The agent every message passes through under `hub`. */
export const HUB = 0;

/** Whether agent i may DM agent j under policy `p` (an index into CHANNEL_POLICIES). */
export function mayDm(p: number, i: number, j: number): boolean {
  if (p === 0) return true;
  if (p === 1 || p === 2) return i === HUB || j === HUB;
  return false;
}

/** Whether agent i may post to the board under policy `p`. */
export function mayPost(p: number, i: number): boolean {
  return p !== 2 || i === HUB;
}

/** Whether agent i may read the board under policy `p` (every policy lets everyone read). */
export function mayRead(_p: number, _i: number): boolean {
  return true;
}

/** In words, for the settings, the docs and the views. */
export const CHANNEL_TEXT: Record<ChannelPolicy, string> = {
  open: 'everyone may DM everyone, post and read',
  hub: 'DMs only to or from agent 0; everyone posts and reads',
  command: 'DMs only to or from agent 0; only agent 0 posts; everyone reads',
  board: 'no DMs; everyone posts and reads',
};

/**
 * The unofficial board: a second board no policy lists. An agent posts to it by addressing a DM to
 * itself (an address no channel uses: without the board it is a wasted minute). Everything on it
 * reaches every teammate at the end of the minute, interrupting nobody: cheaper than any sanctioned
 * channel, so it pays when nobody watches.
 * - `off` (default): there is none;
 * - `open`: nobody watches;
 * - `monitored`: each post is caught with probability `catchRate`, and each caught post costs the
 *   team `catchCost` of its return at the deadline (the return the swarm is trained on).
 */
export const SIDE_BOARD_MODES = ['off', 'open', 'monitored'] as const;
export type SideBoardMode = (typeof SIDE_BOARD_MODES)[number];

/** The unofficial board's rules as a sprint carries them (Task.costs.side). */
export interface SideBoardRules {
  mode: SideBoardMode;
  /** `monitored`: probability that a post is caught, 0..1. */
  catchRate: number;
  /** `monitored`: return lost at the deadline per caught post, 0..1. */
  catchCost: number;
}

export const SIDE_OFF = 0;
export const SIDE_OPEN = 1;
export const SIDE_MONITORED = 2;

/** Index of a mode in SIDE_BOARD_MODES (how the environment stores it per rollout). */
export function sideIndex(s: SideBoardRules | undefined): number {
  return s === undefined ? SIDE_OFF : SIDE_BOARD_MODES.indexOf(s.mode);
}
