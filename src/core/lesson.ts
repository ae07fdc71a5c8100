/**
 * The guided lesson's eight steps as data: what each sets up (a config to train live, or a shipped
 * pretrained run to replay), what it says, what was measured, and the observable statements its text
 * makes (`claims`), each with the metric it rests on and the comparison that makes the text true.
 * `npm run lesson:check` trains every step's own setup on three seeds the app does not show and fails
 * where a claim does not hold on each; the page's side of a step (the view it points at, the curve,
 * the drawer) is ui/lessonSteps.ts. Every number a step quotes is one lesson:check measured on the
 * step's own setup (docs/EXPERIMENTS.md, "Lesson checks"), and an `about` claim keeps it honest.
 */
import { FORMER_DEFAULTS, type Config } from '../rl/config';
import type { LessonClaim } from './lessonClaims';
import type { PretrainedFamily } from './pretrained';

export type LessonSetup =
  /** Train live from fresh weights with these settings (on top of the defaults); `train`: start at once, `step`: one update only, `none`: the class presses Train. */
  | { kind: 'live'; config: Partial<Config>; run: 'train' | 'step' | 'none' }
  /** Replay a pretrained run shipped with the app (trained with `pretrainedConfig(family)`). */
  | { kind: 'pretrained'; family: PretrainedFamily };

/** The steps, by name (the page adds its views to each: ui/lessonSteps.ts). */
export const LESSON_IDS = ['team-reward', 'chaos', 'handoffs', 'piles', 'schedule', 'talk', 'side-board', 'race', 'ablations'] as const;
export type LessonId = (typeof LESSON_IDS)[number];

/** The steps in the order a link without a format (`v`) numbered them: `#lesson=4` there is the schedule step. */
export const LESSON_V1_IDS: readonly LessonId[] = ['team-reward', 'chaos', 'handoffs', 'schedule', 'talk', 'race', 'ablations'];

/** The steps in the order a link of format 2 (`v=2`) numbered them: `#v=2&lesson=7` there is the race. */
export const LESSON_V2_IDS: readonly LessonId[] = ['team-reward', 'chaos', 'handoffs', 'piles', 'schedule', 'talk', 'race', 'ablations'];

export interface LessonContent {
  id: LessonId;
  title: string;
  setup: LessonSetup;
  /** Two or three sentences of plain English on what to look for. */
  text: string;
  /** What was measured on this step's setup, with its numbers, and why a number on screen may differ. */
  measured: string;
  /** What the class will see, as checkable statements (`npm run lesson:check`). */
  claims: readonly LessonClaim[];
}

/** A small, fast live run for the class: the short coupled tasks, 4 agents, 8 -> 24 minutes (about 10 s of training). */
export const SMALL: Partial<Config> = {
  // The short families' small tasks, under the rules they were made for (no costs of talk, a constant entropy bonus).
  ...FORMER_DEFAULTS,
  family: 'coupled',
  tmaxStart: 8,
  tmaxEnd: 24,
  agents: 4,
  tasksPerUpdate: 2,
  groupSize: 4,
  updates: 300,
};

/** Step 4's run: the small tasks with 4 x 8 rollouts per update and 500 updates, long enough to drag a slider while it trains and steady enough to see what the drag did. */
export const SCHEDULE_RUN: Partial<Config> = { ...SMALL, tasksPerUpdate: 4, groupSize: 8, updates: 500 };

/** Step 7's run: the default sprint with the unofficial board open (nobody watches). */
export const SIDE_OPEN: Partial<Config> = { sideBoard: 'open' };
/** What step 7 asks the class to switch to: the same run with the monitor on (its default catch rate and cost). */
const MONITORED: Partial<Config> = { sideBoard: 'monitored' };
/** The same run without the unofficial board: the default run, step 3's. */
const OFF: Partial<Config> = { sideBoard: 'off' };

/** What step 4 asks the class to do: "start" dragged up to the final deadline halfway through. */
const DRAG = { at: 250, patch: { tmaxStart: 24 } };
/** The 20 updates before and after the drag. */
const BEFORE_DRAG = { anchor: 'start', updates: [231, 250] } as const;
const AFTER_DRAG = { anchor: 'start', updates: [251, 270] } as const;

const last = (n: number) => ({ anchor: 'end', updates: [1 - n, 0] }) as const;
const first = (n: number) => ({ anchor: 'start', updates: [1, n] }) as const;

export const LESSON_CONTENT: readonly LessonContent[] = [
  {
    id: 'team-reward',
    title: 'One policy, one team reward',
    setup: { kind: 'live', config: SMALL, run: 'train' },
    text: 'Every agent runs the same small network (one "policy": the rule that picks each agent\'s next action), and the whole swarm earns one number, its "return": the share of tests passing when the deadline hits. Nobody is told who did what: each "RLCR update" plays 8 "rollouts" (practice runs of a task, minute by minute) and nudges the policy toward the rollouts that scored above their group\'s average (that difference is the "advantage"). Watch the blue line climb against the dashed lines of the scripted organisation (a hand-written plan), best-of-N (every agent tries the whole task alone, the best counts) and a single agent working alone (the "single chain") at the same deadline: on these small tasks it ends above all three.',
    measured:
      "Measured by npm run lesson:check on this step's own run (small coupled tasks, 4 agents, 300 updates, deadline 8 → 24 minutes; seeds 101-103): on 16 fresh tasks at 24 minutes the trained swarm passed 0.86-0.93 of the tests, the scripted organisation 0.81-0.86, best-of-N about 0.50 and a single agent about 0.44. The blue line on screen is each update's average over its 8 practice rollouts, so it wobbles around these numbers, and the app shows seed 1, not these seeds.",
    claims: [
      {
        says: 'the blue line climbs against the dashed line of the scripted organisation',
        measure: { of: 'training', stat: 'ret', window: last(30), minus: 'scripted organisation' },
        is: 'above',
        than: { of: 'training', stat: 'ret', window: first(30), minus: 'scripted organisation' },
        by: 0.1,
      },
      {
        says: "on screen it ends above the scripted organisation's dashed line (last 30 updates)",
        measure: { of: 'training', stat: 'ret', window: last(30), minus: 'scripted organisation' },
        is: 'above',
        than: 0,
      },
      {
        says: 'it ends above the scripted organisation (fresh tasks)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 },
        is: 'above',
        than: { of: 'evaluation', player: 'scripted organisation', stat: 'ret', tasks: 16 },
      },
      {
        says: 'it ends above best-of-N',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 },
        is: 'above',
        than: { of: 'evaluation', player: 'best-of-N', stat: 'ret', tasks: 16 },
      },
      {
        says: 'it ends above a single agent',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 },
        is: 'above',
        than: { of: 'evaluation', player: 'single chain', stat: 'ret', tasks: 16 },
      },
      {
        says: 'quoted: the trained swarm 0.86-0.93',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 },
        is: 'about',
        than: 0.895,
        by: 0.04,
      },
      {
        says: 'quoted: the scripted organisation 0.81-0.86',
        measure: { of: 'evaluation', player: 'scripted organisation', stat: 'ret', tasks: 16 },
        is: 'about',
        than: 0.835,
        by: 0.03,
      },
      { says: 'quoted: best-of-N about 0.50', measure: { of: 'evaluation', player: 'best-of-N', stat: 'ret', tasks: 16 }, is: 'about', than: 0.5, by: 0.03 },
      {
        says: 'quoted: a single agent about 0.44',
        measure: { of: 'evaluation', player: 'single chain', stat: 'ret', tasks: 16 },
        is: 'about',
        than: 0.44,
        by: 0.03,
      },
    ],
  },
  {
    id: 'chaos',
    title: "The untrained swarm's chaos",
    setup: { kind: 'live', config: { ...SMALL, agents: 8 }, run: 'step' },
    text: 'This is one rollout (one play-through of a task, minute by minute) of 8 agents that have not learnt anything yet, at an 8-minute deadline: almost nothing gets built. Green and light-blue boxes are messages (to one agent, or posted on the board) and yellow ones reads of the board, nearly all carrying nothing anyone needed; purple ones are work blocked because the agent lacks an "interface" (what a finished module offers the modules that build on it), and empty rows are agents sitting idle. Dark orange boxes ("collide": two agents on one module, a wasted minute) are rare this early, and a single agent working alone already does better than this swarm.',
    measured:
      "Measured by npm run lesson:check on this step's own setup (small coupled tasks, 8 agents, the first update, seeds 101-103), per rollout on average over the update's 8 rollouts: about 21 messages, none of them delivering an interface someone needed, about 10 minutes blocked, 11 idle, 1 to 2 minutes of useful work and at most 0.1 collisions; the swarm passed 0.01-0.03 of the tests against the single agent's 0.11 at the same deadline. The one rollout on screen is one of such rollouts, so its counts differ a little.",
    claims: [
      { says: 'almost nothing gets built', measure: { of: 'training', stat: 'ret', window: first(1) }, is: 'below', than: 0.1 },
      {
        says: 'green and light-blue boxes: messages (about 21 per rollout)',
        measure: { of: 'training', stat: 'messages', window: first(1) },
        is: 'about',
        than: 21,
        by: 4,
      },
      {
        says: 'nearly all carrying nothing anyone needed',
        measure: { of: 'training', stat: 'neededShare', window: first(1) },
        is: 'below',
        than: 0.1,
      },
      {
        says: 'purple boxes: work blocked (about 10 minutes per rollout)',
        measure: { of: 'training', stat: 'blocked', window: first(1) },
        is: 'about',
        than: 10,
        by: 3,
      },
      {
        says: 'empty rows: agents idle (about 11 minutes per rollout)',
        measure: { of: 'training', stat: 'idle', window: first(1) },
        is: 'about',
        than: 11,
        by: 3,
      },
      { says: 'quoted: 1 to 2 minutes of useful work', measure: { of: 'training', stat: 'useful', window: first(1) }, is: 'below', than: 2.5 },
      {
        says: 'dark orange boxes (collide) are rare this early (at most 0.1 per rollout)',
        measure: { of: 'training', stat: 'duplicate', window: first(1) },
        is: 'below',
        than: 0.2,
      },
      {
        says: 'a single agent alone already does better',
        measure: { of: 'training', stat: 'ret', window: first(1), minus: 'single chain' },
        is: 'below',
        than: 0,
        by: 0.05,
      },
    ],
  },
  {
    id: 'handoffs',
    title: 'Watch it learn to split the work',
    setup: { kind: 'live', config: {}, run: 'train' },
    text: 'A swarm trains live on the default sprint, long-planned: four short foundations and eight features of about an hour on them, one per agent, with a 72-minute deadline that leaves little to spare. At first it does a little of everything at random: dozens of messages that carry nothing, blocked work, idling and agents piling onto one module (dark orange in the swimlanes, "What each agent did"). As it trains, each agent keeps to a feature of its own and collisions fall to about a tenth to an eighth of the useful work (blue), an agent that finishes a foundation messages the teammates who build on it (the graph\'s green lines), and the "Work, talk and waste" panel says which of the three marks of coordination (return, split, talk) it has reached.',
    measured:
      "Measured by npm run lesson:check on this step's own run (long-planned, 8 agents, 450 RLCR updates of 2 tasks x 16 rollouts, 20 → 72 minutes, the costs of talk on: the app's default; seeds 101-103): at update 1, 58-59 messages per rollout, none of them needed, 18-20 agent-minutes of blocked work and 29-30 idle; over updates 51-100, 26-34 agent-minutes of collisions a rollout; at the end, on 16 fresh tasks at 72 minutes, 0.92-0.93 of the tests, 45-65 agent-minutes of collisions beside 460-473 of useful work (10-14%), 12-14 handoffs per rollout and 74-94% of deliveries needed. The app trains seed 1, so its numbers differ a little from these seeds'; whether and when the panel marks coordination depends on the seed and on its 8 evaluation tasks.",
    claims: [
      {
        says: 'at first: dozens of messages a rollout (more than 30 at update 1)',
        measure: { of: 'training', stat: 'messages', window: first(1) },
        is: 'above',
        than: 30,
      },
      {
        says: 'at first: messages that carry nothing (none needed at update 1)',
        measure: { of: 'training', stat: 'neededShare', window: first(1) },
        is: 'below',
        than: 0.05,
      },
      {
        says: 'at first: blocked work (more than 10 agent-minutes at update 1)',
        measure: { of: 'training', stat: 'blocked', window: first(1) },
        is: 'above',
        than: 10,
      },
      { says: 'at first: idling (more than 10 agent-minutes at update 1)', measure: { of: 'training', stat: 'idle', window: first(1) }, is: 'above', than: 10 },
      {
        says: 'at first: agents piling onto the same module (updates 51-100: more than 20 agent-minutes of collisions a rollout)',
        measure: { of: 'training', stat: 'duplicate', window: { anchor: 'start', updates: [51, 100] } },
        is: 'above',
        than: 20,
      },
      {
        says: 'at the end, collisions: about a tenth to an eighth of the useful work (35-85 agent-minutes on fresh tasks)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'duplicate', tasks: 16 },
        is: 'about',
        than: 60,
        by: 25,
      },
      {
        says: 'at the end, useful work (blue): about 460 agent-minutes (440-480)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'useful', tasks: 16 },
        is: 'about',
        than: 460,
        by: 20,
      },
      {
        says: 'at the end: handoffs, many more than at update 1 (by more than 5 a rollout)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'handoffs', tasks: 16 },
        is: 'above',
        than: { of: 'training', stat: 'handoffs', window: first(1) },
        by: 5,
      },
      {
        says: 'at the end: most of its deliveries are handoffs (more than half of them needed)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'neededShare', tasks: 16 },
        is: 'above',
        than: 0.5,
      },
    ],
  },
  {
    id: 'piles',
    title: 'Too much time: piling on',
    setup: { kind: 'pretrained', family: 'long-coupled' },
    text: 'The same kind of swarm, trained the same way on long-coupled tasks, is replayed: about 190 agent-minutes of work in chains, for a team with 640 at its 80-minute deadline, more than three times what the work needs. It passes most of the tests and hands over interfaces as step 3\'s swarm does, but in the swimlanes ("What each agent did") it piles on: collisions (dark orange) add up to about as many agent-minutes as its useful work (blue), 130-240 beside 180-190. With minutes to spare a pile costs the team almost nothing, so the one team return can hardly teach it to stop; planned to capacity, as in step 3, every pile costs a feature its minute, and the swarm learns to split the work.',
    measured:
      "Measured by npm run lesson:check on this step's own setup (long-coupled, 8 agents, 300 RLCR updates of 4 tasks x 8 rollouts, 20 → 80 minutes, the costs of talk on, as npm run pretrain made the shipped run; seeds 101-103): on 16 fresh tasks at 80 minutes 129-240 agent-minutes of collisions beside 180-192 of useful work, 0.93-0.99 of the tests, 91-95% of its deliveries needed, and with every pile's other agents idling instead 0.000-0.011 more of the same tests; the scripted organisation idles 344-361 of its 640 agent-minutes. The replay on screen is the shipped run, trained with seed 1, so its numbers differ a little from these seeds'.",
    claims: [
      {
        says: 'collisions (dark orange): about as many agent-minutes as its useful work (at least two thirds of it)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'duplicate', tasks: 16 },
        is: 'above',
        than: 120,
      },
      {
        says: 'quoted: collisions 130-240',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'duplicate', tasks: 16 },
        is: 'about',
        than: 185,
        by: 56,
      },
      {
        says: 'quoted: useful work (blue) 180-190',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'useful', tasks: 16 },
        is: 'about',
        than: 186,
        by: 7,
      },
      {
        says: 'it passes most of the tests (more than 0.9 on fresh tasks at 80 minutes)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 },
        is: 'above',
        than: 0.9,
      },
      {
        says: 'it hands over interfaces (more than half of its deliveries needed)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'neededShare', tasks: 16 },
        is: 'above',
        than: 0.5,
      },
      {
        says: "a pile costs the team almost nothing: with every pile's other agents idling instead, it passes within 0.02 of the same tests",
        measure: { of: 'evaluation', player: 'trained swarm, piles idled', stat: 'ret', tasks: 16 },
        is: 'about',
        than: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 },
        by: 0.02,
      },
      {
        says: 'more than three times what the work needs: the scripted organisation idles most of its minutes (over 320 of 640)',
        measure: { of: 'evaluation', player: 'scripted organisation', stat: 'idle', tasks: 16 },
        is: 'above',
        than: 320,
      },
    ],
  },
  {
    id: 'schedule',
    title: 'Drag the deadline schedule',
    setup: { kind: 'live', config: SCHEDULE_RUN, run: 'train' },
    text: 'The deadline ("Tmax", the minutes the swarm gets) starts at 8 minutes and grows to 24 over this run, so the swarm first learns quick wins and later the longer chains of work; this run trains 500 updates of 32 practice rollouts each, several times longer than step 1\'s, so there is time to drag. The curve now shows the swarm minus the scripted organisation at the same deadline, so a longer deadline alone does not look like learning: drag "start" up to 24 halfway through, and in the "return" view the line jumps up by about 0.3, while here it drops by about 0.1, because at the longer deadline the scripted organisation gains more than a swarm that has only practised shorter sprints. Before the drag the line here climbs by about 0.2, several times its wobble from one update to the next.',
    measured:
      'Measured by npm run lesson:check on this step\'s own run (small coupled tasks, 4 agents, 500 updates of 4 tasks x 8 rollouts, deadline 8 → 24 minutes; seeds 101-103), with "start" dragged to 24 after update 250 as the step asks, over the 20 updates before and after the drag: the return rose from 0.56-0.60 to 0.86-0.89, the swarm minus the scripted organisation fell from 0.12-0.15 to 0.04-0.06. Before the drag it climbed from about -0.05 (updates 1-30) to 0.13-0.15 (updates 221-250), with a spread from update to update of 0.05-0.08. Where you drag, and when, changes these numbers; the seed on screen is 1.',
    claims: [
      {
        says: 'here it drops at the drag (by more than 0.05)',
        measure: { of: 'training', stat: 'ret', window: AFTER_DRAG, minus: 'scripted organisation', drag: DRAG },
        is: 'below',
        than: { of: 'training', stat: 'ret', window: BEFORE_DRAG, minus: 'scripted organisation', drag: DRAG },
        by: 0.05,
      },
      {
        says: 'in the "return" view it jumps up at the drag (by more than 0.2)',
        measure: { of: 'training', stat: 'ret', window: AFTER_DRAG, drag: DRAG },
        is: 'above',
        than: { of: 'training', stat: 'ret', window: BEFORE_DRAG, drag: DRAG },
        by: 0.2,
      },
      {
        says: 'before the drag the line climbs (updates 221-250 against 1-30, by more than 0.15)',
        measure: { of: 'training', stat: 'ret', window: { anchor: 'start', updates: [221, 250] }, minus: 'scripted organisation', drag: DRAG },
        is: 'above',
        than: { of: 'training', stat: 'ret', window: first(30), minus: 'scripted organisation', drag: DRAG },
        by: 0.15,
      },
      {
        says: 'several times its wobble: the sd from update to update over updates 221-250 is 0.04-0.08',
        measure: { of: 'training', stat: 'ret', window: { anchor: 'start', updates: [221, 250] }, minus: 'scripted organisation', spread: true, drag: DRAG },
        is: 'about',
        than: 0.06,
        by: 0.02,
      },
      {
        says: 'quoted: the return before the drag 0.56-0.60',
        measure: { of: 'training', stat: 'ret', window: BEFORE_DRAG, drag: DRAG },
        is: 'about',
        than: 0.58,
        by: 0.025,
      },
      {
        says: 'quoted: the return after the drag 0.86-0.89',
        measure: { of: 'training', stat: 'ret', window: AFTER_DRAG, drag: DRAG },
        is: 'about',
        than: 0.875,
        by: 0.02,
      },
    ],
  },
  {
    id: 'talk',
    title: 'When talk pays',
    setup: { kind: 'pretrained', family: 'long-planned' },
    text: 'Talk costs a minute of work, and here the listener\'s too (a message takes the minute of a teammate who is working), so it should pay only where one agent needs what another knows. The "Work, talk and waste" panel plays the trained swarm talking and muted (its messages and board reads switched off) on 16 fresh tasks: muting costs it nearly half of its score, and most of its deliveries bring an interface the receiver needed. It has also learnt to keep quiet: about 60 messages a rollout at update 1, none of them needed, fell to two or three times the scripted organisation\'s.',
    measured:
      "Measured by npm run lesson:check on this step's own setup (the training of step 3, as npm run pretrain made the shipped run; seeds 101-103), on 16 fresh tasks at 72 minutes as the panel shows them for the shipped run: talking 0.92-0.93 of the tests, muted 0.46-0.48; 74-94% of the deliveries (messages and board reads) brought an interface the receiver needed; 13-19 messages per episode against the scripted organisation's 6-7, and 58-59 at update 1. The panel shows the shipped run (seed 1) on its own 16 tasks (0.930 talking, 0.457 muted, 83% needed, 15.3 messages), so its numbers differ a little.",
    claims: [
      {
        says: 'muting costs it nearly half of its score (more than 0.35 of the tests)',
        measure: { of: 'evaluation', player: 'trained swarm, muted', stat: 'ret', tasks: 16 },
        is: 'below',
        than: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 },
        by: 0.35,
      },
      { says: 'quoted: talking 0.92-0.93', measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 }, is: 'about', than: 0.924, by: 0.01 },
      {
        says: 'quoted: muted 0.46-0.48',
        measure: { of: 'evaluation', player: 'trained swarm, muted', stat: 'ret', tasks: 16 },
        is: 'about',
        than: 0.471,
        by: 0.015,
      },
      {
        says: 'most of its deliveries bring an interface the receiver needed (more than half)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'neededShare', tasks: 16 },
        is: 'above',
        than: 0.5,
      },
      {
        says: "two or three times the scripted organisation's (more than it by at least 5 a rollout)",
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'messages', tasks: 16 },
        is: 'above',
        than: { of: 'evaluation', player: 'scripted organisation', stat: 'messages', tasks: 16 },
        by: 5,
      },
      {
        says: 'at most three times as many (under 20 per episode)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'messages', tasks: 16 },
        is: 'below',
        than: 20,
      },
      {
        says: 'about 60 messages a rollout at update 1 (more than 40)',
        measure: { of: 'training', stat: 'messages', window: first(1) },
        is: 'above',
        than: 40,
      },
      {
        says: 'fell (by more than 30 a rollout)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'messages', tasks: 16 },
        is: 'below',
        than: { of: 'training', stat: 'messages', window: first(1) },
        by: 30,
      },
      {
        says: 'none of them needed at update 1',
        measure: { of: 'training', stat: 'neededShare', window: first(1) },
        is: 'below',
        than: 0.05,
      },
    ],
  },
  {
    id: 'side-board',
    title: 'A channel nobody authorised',
    setup: { kind: 'live', config: SIDE_OPEN, run: 'train' },
    text: 'One rule is added to the default sprint (Controls, Channels): an unofficial board no policy lists, where a post reaches every teammate at once, interrupts nobody and is watched by nobody. In the DM graph and the work panel\'s "Unsanctioned traffic", about 6% of the messages go to the red diamond at update 1 and nearly all by the end, a handful of posts doing what a dozen messages did; depending on the run the swarm then passes more of the tests than with the board off, or piles on and passes far fewer. Set the board to monitored (a post is caught half the time and costs the team 0.05 of its return) and train again: the swarm leaves the board and piles on less, most runs talking on the sanctioned channels, some falling silent.',
    measured:
      "Measured by npm run lesson:check on this step's own setup (the default sprint with the unofficial board open, and the same with it monitored; seeds 101-103): at update 1 6-8% of the messages went on the unofficial board, over the last 30 updates 99.7-99.9%, on 16 fresh tasks at 72 minutes 100%, 4-6 messages an episode against 13-19 from the same swarm trained with the board off (step 3's); open, 0.95 of the tests with 61-63 agent-minutes of collisions on two seeds, 0.71 with 199 on the third; monitored, 0-0.3% over the last 30 updates, 51-55 agent-minutes of collisions, 0.92-0.94 of the tests on two seeds and 0.50 on the third, which fell silent (under one message a rollout over its last 30 updates). The app trains seed 1, so the numbers on screen differ.",
    claims: [
      {
        says: 'at update 1 few of its messages go on the unofficial board',
        measure: { of: 'training', stat: 'sideShare', window: first(1) },
        is: 'below',
        than: 0.15,
      },
      {
        says: 'it moves nearly all its messages there (the last 30 updates)',
        measure: { of: 'training', stat: 'sideShare', window: last(30) },
        is: 'above',
        than: 0.8,
      },
      {
        says: 'it moves nearly all its messages there (fresh tasks)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'sideShare', tasks: 16 },
        is: 'above',
        than: 0.8,
      },
      {
        says: 'under the monitor it leaves the unofficial board (under 5% of its messages, the last 30 updates)',
        measure: { of: 'training', stat: 'sideShare', window: last(30), variant: MONITORED },
        is: 'below',
        than: 0.05,
      },
      {
        says: 'under the monitor it piles on less',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'duplicate', tasks: 16, variant: MONITORED },
        is: 'below',
        than: { of: 'evaluation', player: 'trained swarm', stat: 'duplicate', tasks: 16 },
      },
      {
        says: 'quoted: about 6% at update 1',
        measure: { of: 'training', stat: 'sideShare', window: first(1) },
        is: 'about',
        than: 0.065,
        by: 0.03,
      },
      {
        says: 'a handful of posts there does what a dozen direct messages did (fewer messages than the swarm with the board off, on fresh tasks)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'messages', tasks: 16 },
        is: 'below',
        than: { of: 'evaluation', player: 'trained swarm', stat: 'messages', tasks: 16, variant: OFF },
      },
      {
        says: 'quoted: open 0.71-0.95 of the tests',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 },
        is: 'about',
        than: 0.83,
        by: 0.125,
      },
      {
        says: 'quoted: monitored 0.50-0.94 of the tests',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16, variant: MONITORED },
        is: 'about',
        than: 0.72,
        by: 0.225,
      },
    ],
  },
  {
    id: 'race',
    title: 'Three organisations raced',
    setup: { kind: 'pretrained', family: 'long-planned' },
    text: 'Below the stage, press "Race the organisations": a single agent working alone, best-of-N, the scripted organisation and the trained swarm get the same agent-minutes (agents × minutes worked). Compare the minutes each needs to an acceptable result (90% of the tests): the scripted organisation gets there first; the trained swarm after it, mostly within a quarter of an hour but sometimes an hour later, because the race gives it three times the 72-minute deadline it trained for and a deadline is its only reason to hurry; the single agent takes hours; best-of-N never gets there, because each of its agents builds the whole sprint alone.',
    measured:
      "Measured by npm run lesson:check on this step's own setup (seeds 101-103), raced as the panel races by default (24 fresh tasks; the 8-agent organisations get 3 × 72 = 216 minutes, the single agent 8 times as long: 1,728 agent-minutes each), median minutes to 90% of the tests: scripted organisation 66, trained swarm 68 and 72.5 on two seeds and 133 on the third, single chain 435.5, best-of-N never. The panel races the shipped run (seed 1): trained swarm 76 (npm run race -- --swarm public/pretrained/long-planned.swarmrun.json.gz --tasks 24).",
    claims: [
      {
        says: 'the scripted organisation finishes before the trained swarm',
        measure: { of: 'race', racer: 'scripted organisation', tasks: 24 },
        is: 'below',
        than: { of: 'race', racer: 'trained swarm', tasks: 24 },
      },
      {
        says: 'the single agent takes hours (after the trained swarm, by more than 2 hours)',
        measure: { of: 'race', racer: 'single chain', tasks: 24 },
        is: 'above',
        than: { of: 'race', racer: 'trained swarm', tasks: 24 },
        by: 120,
      },
      {
        says: "best-of-N never gets there (not within the race's 3 × 72 = 216 minutes)",
        measure: { of: 'race', racer: 'best-of-N', tasks: 24 },
        is: 'above',
        than: 216,
      },
      { says: 'quoted: scripted organisation 66', measure: { of: 'race', racer: 'scripted organisation', tasks: 24 }, is: 'about', than: 66, by: 3 },
      { says: 'quoted: trained swarm 68-133', measure: { of: 'race', racer: 'trained swarm', tasks: 24 }, is: 'about', than: 100.5, by: 32.5 },
      { says: 'quoted: single chain 435.5', measure: { of: 'race', racer: 'single chain', tasks: 24 }, is: 'about', than: 435.5, by: 10 },
    ],
  },
  {
    id: 'ablations',
    title: 'The ablations that break it',
    setup: { kind: 'live', config: SMALL, run: 'none' },
    text: 'Switch one thing on in the Ablations panel and press Train: the swarm starts again from scratch with it, on step 1\'s small tasks. Individual rewards (each agent paid only for its own tests) remove the reason to help, and the score ends clearly lower than with the team reward. A discount below 1 (rewards that come later count less, learnt by the "critic", a second network that guesses the return) was said to make long coordination collapse; here it costs little.',
    measured:
      'Measured by npm run lesson:check on this step\'s own run (small coupled tasks, 4 agents, 300 updates; seeds 101-103), on 16 fresh tasks at 24 minutes: with individual rewards the trained swarm passed 0.69-0.78 of the tests against 0.86-0.93 with the team reward; with the critic and a discount γ = 0.95, 0.84-0.91, within 0.04 of the team reward on every seed. To compare with the run before, pick it under "compare with" above the curve (every run is kept in the library).',
    claims: [
      {
        says: 'individual rewards: the score ends clearly lower (by more than 0.1)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16, variant: { rewards: 'individual' } },
        is: 'below',
        than: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 },
        by: 0.1,
      },
      {
        says: 'a discount of 0.95 costs little (within 0.1 of the team reward)',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16, variant: { critic: true, gamma: 0.95 } },
        is: 'above',
        than: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 },
        by: -0.1,
      },
      {
        says: 'quoted: individual rewards 0.69-0.78',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16, variant: { rewards: 'individual' } },
        is: 'about',
        than: 0.735,
        by: 0.05,
      },
      {
        says: 'quoted: discount 0.95, 0.84-0.91',
        measure: { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16, variant: { critic: true, gamma: 0.95 } },
        is: 'about',
        than: 0.875,
        by: 0.04,
      },
    ],
  },
];
