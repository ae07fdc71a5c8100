/**
 * The guided lesson: seven steps, each setting up the app (a config to train live, or a pretrained
 * run to replay), naming the view to look at, and saying in plain words what to look for. Every
 * number quoted is one docs/EXPERIMENTS.md or docs/RESULTS.md measured; where a claim reproduced only
 * partly, the step says so.
 */
import type { Config } from '../rl/config';
import type { CurveView, FocusView } from '../store/view';
import type { PretrainedFamily } from '../core/pretrained';

export type LessonSetup =
  /** Train live from fresh weights with these settings (on top of the defaults); `train`: start at once, `step`: one update only. */
  | { kind: 'live'; config: Partial<Config>; run: 'train' | 'step' | 'none' }
  /** Replay a pretrained run shipped with the app. */
  | { kind: 'pretrained'; family: PretrainedFamily };

export interface LessonStep {
  title: string;
  setup: LessonSetup;
  /** The view the step points at (the page highlights it). */
  focus: FocusView;
  /** The curve's view while the step is on screen. */
  curve?: CurveView;
  /** Opens the controls drawer (the schedule and the ablations live there). */
  drawer?: boolean;
  /** The view is below the stage (one scroll away): the step offers to scroll there. */
  below?: boolean;
  /** Two or three sentences of plain English on what to look for. */
  text: string;
  /** What was measured, with its numbers and whether the claim reproduced. */
  measured: string;
}

/** A small, fast live run for the class: first-round coupled tasks, 8 -> 24 minutes. */
const SMALL: Partial<Config> = { family: 'coupled', tmaxStart: 8, tmaxEnd: 24, agents: 4, tasksPerUpdate: 2, groupSize: 4, updates: 300 };

export const LESSON: readonly LessonStep[] = [
  {
    title: 'One policy, one team reward',
    setup: { kind: 'live', config: SMALL, run: 'train' },
    focus: 'curve',
    text: 'Every agent runs the same small network, and the whole swarm earns one number: the share of tests passing when the deadline hits. Nobody is told who did what. Watch the blue line climb against the dashed lines of the scripted organisation, best-of-N and a single agent at the same deadline.',
    measured:
      'On long-coupled tasks (8 agents, 3 seeds, 300 updates): the trained swarm passed 0.929 ± 0.011 of the tests at 80 minutes, the single chain 0.358 and best-of-N 0.422; the scripted organisation 0.984. Reproduced.',
  },
  {
    title: "The untrained swarm's chaos",
    setup: { kind: 'live', config: { ...SMALL, agents: 8 }, run: 'step' },
    focus: 'swimlanes',
    text: 'This is one rollout of a swarm that has not learnt anything yet. Red boxes are two agents working on the same module (a wasted minute), purple ones are work blocked for lack of an interface, green ones are messages, mostly carrying nothing the receiver needed.',
    measured:
      'Early in training a lone agent does better: over the first 30 updates on long-coupled tasks the single chain passed 0.043 of the tests, the swarm 0.019, and the swarm overtook it only at update 68 ± 4.',
  },
  {
    title: 'Division of labour and handoffs',
    setup: { kind: 'pretrained', family: 'long-coupled' },
    focus: 'dm',
    text: 'A swarm trained on long-coupled tasks, replayed. Each agent now keeps to its own module, and when it finishes one it tells the agent who needs the interface: the thick green lines are those handoffs. Drag the update scrubber back to see the graph before training.',
    measured:
      'At 80 minutes: handoffs that unblocked someone grew from 0.8 to 34.6 per episode, and useful work done at once from 0.20 to 2.38 agents (reproduced). This shipped run (100 imitation updates of the scripted organisation, then 300 RLCR updates) passes 0.916 of the tests at 80 minutes on 16 fresh tasks.',
  },
  {
    title: 'Drag the deadline schedule',
    setup: { kind: 'live', config: SMALL, run: 'train' },
    focus: 'schedule',
    drawer: true,
    curve: 'relative',
    text: 'The deadline starts short and grows, so the swarm first learns quick wins and later the long handoff chains. Drag "start" up while it trains: the curve marks the change, and because the curve now shows the swarm minus the scripted organisation at the same deadline, a longer deadline no longer looks like learning.',
    measured:
      'Partly reproduced: growing the deadline 20 → 80 ended above a fixed 80 minutes in every seed (0.929 ± 0.011 vs 0.893 ± 0.018), but handoffs at the end were about equal (33.8 vs 33.3).',
  },
  {
    title: 'When talk pays',
    setup: { kind: 'pretrained', family: 'long-coupled' },
    focus: 'work',
    below: true,
    text: 'Talk costs a minute of work, so it should pay only where one agent needs what another knows. The "Work, talk and waste" panel below the stage plays the trained swarm talking and muted on the same fresh tasks and shows the difference.',
    measured:
      'On long-coupled tasks the muted swarm scored 0.385, 0.356, 0.362 against 0.924, 0.923, 0.942 talking (+0.54 to +0.58); on long-parallel tasks muting changed little (-0.008 ± 0.013). Only partly as the article says: just 16-25% of deliveries brought an interface the receiver needed, and on search tasks the swarm talks more than on coupled ones although talk is worth nothing there (+0.006).',
  },
  {
    title: 'Three organisations raced',
    setup: { kind: 'pretrained', family: 'long-coupled' },
    focus: 'organisations',
    below: true,
    text: 'Below the stage, press "Race the organisations": a single agent working alone, best-of-N (everyone tries the whole task, the best counts), the scripted organisation and the trained swarm get the same agent-minutes. Compare the minutes each needs to an acceptable result.',
    measured:
      'With this shipped long-coupled swarm (16 fresh tasks, 1,920 agent-minutes each), median minutes to 90% of the tests: scripted organisation 66.5, trained swarm 79.0, best-of-N 156.0, single chain 165.5. Over three seeds (reproduced): organisation 65.3, best-of-N 153.3, chain 165.7 on coupled tasks; on a mix of 80% search tasks best-of-N was fastest (50.2), then the organisation (84.7) and the chain (104.3).',
  },
  {
    title: 'The ablations that break it',
    setup: { kind: 'live', config: SMALL, run: 'none' },
    focus: 'ablations',
    drawer: true,
    text: 'Switch one thing off and train again. Individual rewards (each agent paid for its own tests) remove the reason to help; a discount below 1 was said to make long coordination collapse.',
    measured:
      'Individual rewards broke it (reproduced): 0.3 unblocking handoffs per episode against 33.8, return 0.430 against 0.929. Discounting did not (not reproduced): γ or λ = 0.95 changed handoffs by -18% to +4% in 50 updates, no collapse.',
  },
];

/** The lesson step number (1-based) clamped to the lesson. */
export function clampStep(step: number): number {
  return Math.min(LESSON.length, Math.max(1, Math.round(step)));
}

/** The link that opens a lesson step (the page's other settings are the step's own). */
export function stepLink(step: number): string {
  return `#lesson=${clampStep(step)}`;
}
