import { describe, expect, it } from 'vitest';
import { laneCells, laneLabel } from './Swimlanes';

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
