import { describe, expect, it } from 'vitest';
import { MAX_TMAX } from '../core/runChecks';
import type { SimEvent } from '../sim/events';
import { MAX_AGENTS } from '../sim/task';
import { laneCells, laneExtent, laneLabel } from './Swimlanes';

describe('laneCells', () => {
  it('turns events into labelled cells and leaves completions out', () => {
    const cells = laneCells([
      { t: 0, agent: 0, kind: 'work', module: 3, target: -1, useful: false },
      { t: 0, agent: 0, kind: 'complete', module: 3, target: -1, useful: true },
      { t: 1, agent: 0, kind: 'dm', module: -1, target: 2, useful: true },
      { t: 1, agent: 1, kind: 'idle', module: -1, target: -1, useful: false },
    ]);
    expect(cells.map((c) => `${c.t}/${c.agent}/${c.kind}/${c.label}`)).toEqual(['0/0/work/3', '1/0/dm/→2', '1/1/idle/']);
  });
});

describe('laneLabel', () => {
  it("names each agent's part in the structure", () => {
    expect(laneLabel(0, undefined)).toBe('agent 0');
    expect(laneLabel(0, { kind: 'ceo', headCount: [1, 2] })).toBe('agent 0 · CEO');
    expect(laneLabel(3, { kind: 'ceo', headCount: [1, 2] })).toBe('agent 3');
    expect(laneLabel(0, { kind: 'orchestrator', assignment: [-1, 4, -1] })).toBe('agent 0 · orch.');
    expect(laneLabel(1, { kind: 'orchestrator', assignment: [-1, 4, -1] })).toBe('agent 1 · m4');
    expect(laneLabel(2, { kind: 'orchestrator', assignment: [-1, 4, -1] })).toBe('agent 2');
    expect(laneLabel(3, { kind: 'islands', islandOf: [0, 0, 1, 1] })).toBe('agent 3 · isl. 1');
  });

  it('labels the structure events with their target', () => {
    const cells = laneCells([
      { t: 0, agent: 0, kind: 'hire', module: -1, target: 2, useful: true },
      { t: 1, agent: 0, kind: 'assign', module: 5, target: 3, useful: false },
    ]);
    expect(cells.map((c) => c.label)).toEqual(['→2', '5→3']);
  });
});

describe('laneExtent', () => {
  const ev = (agent: number): SimEvent => ({ t: 0, agent, kind: 'work', module: 0, target: -1, useful: false });

  it('draws a lane for every agent that acted, and the whole swarm under a CEO', () => {
    expect(laneExtent([ev(0), ev(2)], 24, undefined, 8)).toEqual({ agents: 3, minutes: 24 });
    expect(laneExtent([ev(0)], 24, { kind: 'ceo', headCount: [1] }, 8)).toEqual({ agents: 8, minutes: 24 });
  });

  it('stays within the largest team and deadline whatever the episode says', () => {
    expect(laneExtent([ev(100000)], 2147483647, undefined, 8)).toEqual({ agents: MAX_AGENTS, minutes: MAX_TMAX });
    expect(laneExtent([], NaN, undefined, 8)).toEqual({ agents: 1, minutes: 1 });
  });

  it('reads 300,000 events without overflowing the stack', () => {
    const many = Array.from({ length: 300_000 }, (_, i) => ev(i % 4));
    expect(laneExtent(many, 24, undefined, 4)).toEqual({ agents: 4, minutes: 24 });
  });
});
