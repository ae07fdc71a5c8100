import { describe, expect, it } from 'vitest';
import { laneCells } from './Swimlanes';

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
