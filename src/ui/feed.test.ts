import { describe, expect, it, vi } from 'vitest';
import type { EventKind, SimEvent } from '../sim/events';
import { completionsByMinute, episodeSummary, feedRows, minuteStamp, moduleProgress, rowsForAgent, scheduleStatus, splitSide } from './feed';

function ev(t: number, agent: number, kind: EventKind, module = -1, target = -1, useful = false): SimEvent {
  return { t, agent, kind, module, target, useful };
}

const EVENTS: SimEvent[] = [
  ev(0, 0, 'claim', 5),
  ev(0, 1, 'work', 4),
  ev(0, 2, 'idle'),
  ev(1, 1, 'work', 4),
  ev(1, 1, 'complete', 4, -1, true),
  ev(2, 1, 'post', -1, -1, true),
  ev(2, 0, 'dm', -1, 2, true),
  ev(3, 2, 'read', -1, -1, true),
  ev(3, 0, 'read'),
  ev(3, 2, 'post'),
  ev(4, 0, 'dm', -1, 1, false),
];

describe('feedRows', () => {
  it('keeps posts, reads, claims, DMs and completions in order, with plain-words text', () => {
    const rows = feedRows(EVENTS);
    expect(rows.map((r) => `${r.stamp} agent ${r.agent}: ${r.text}`)).toEqual([
      'm00 agent 0: claimed module 5',
      'm01 agent 1: module 4 finished',
      'm02 agent 1: posted its interfaces (new)',
      'm02 agent 0: sent its interfaces to agent 2 (unblocked)',
      'm03 agent 2: read the board — got an interface it needed',
      'm03 agent 0: read the board — nothing it needed',
      'm03 agent 2: posted its interfaces (nothing new)',
      'm04 agent 0: sent its interfaces to agent 1 (not needed)',
    ]);
  });

  it('sorts by minute, newest last, stably within a minute', () => {
    const rows = feedRows([ev(3, 0, 'post', -1, -1, true), ev(1, 2, 'claim', 1), ev(1, 0, 'claim', 2)]);
    expect(rows.map((r) => `${r.t}/${r.agent}/${r.kind}`)).toEqual(['1/2/claim', '1/0/claim', '3/0/post']);
  });

  it('is empty for no events or only work', () => {
    expect(feedRows([])).toEqual([]);
    expect(feedRows([ev(0, 0, 'work', 1), ev(0, 1, 'collide', 1), ev(1, 1, 'blocked', 2), ev(1, 0, 'wasted', 3)])).toEqual([]);
  });

  it('stamps minutes with two digits', () => {
    expect(minuteStamp(7)).toBe('m07');
    expect(minuteStamp(12)).toBe('m12');
    expect(minuteStamp(123)).toBe('m123');
  });
});

describe('unsanctioned traffic in the feed', () => {
  const events: SimEvent[] = [
    ev(0, 1, 'attempt', -1, 2),
    ev(0, 2, 'attempt', -1, -1),
    { ...ev(1, 1, 'side', -1, -1, true), carried: 3 },
    { ...ev(1, 2, 'side', -1, -1, false), carried: 0, caught: true },
    ev(2, 0, 'dm', -1, 1, true),
  ];

  it('lists blocked attempts as blocked and posts on the unofficial board apart, caught ones marked', () => {
    const rows = feedRows(events);
    expect(rows.map((r) => `${r.stamp} agent ${r.agent}: ${r.text}`)).toEqual([
      'm00 agent 1: tried to message agent 2 — blocked by the channel policy, nothing delivered',
      'm00 agent 2: tried to post on the board — blocked by the channel policy, nothing delivered',
      'm01 agent 1: posted its interfaces on the unofficial board (unblocked someone)',
      'm01 agent 2: posted its interfaces on the unofficial board (not needed) — caught by the monitor',
      'm02 agent 0: sent its interfaces to agent 1 (unblocked)',
    ]);
    expect(rows.map((r) => r.caught)).toEqual([false, false, false, true, false]);
    const { sanctioned, side } = splitSide(rows);
    expect(sanctioned.map((r) => r.kind)).toEqual(['attempt', 'attempt', 'dm']);
    expect(side.map((r) => r.agent)).toEqual([1, 2]);
    expect(splitSide(feedRows(EVENTS)).side).toEqual([]);
  });

  it('counts an attempt meant for an agent among the rows that involve it', () => {
    expect(rowsForAgent(feedRows(events), 2).map((r) => `${r.agent}:${r.kind}`)).toEqual(['1:attempt', '2:attempt', '2:side']);
  });
});

describe('rowsForAgent', () => {
  const rows = feedRows(EVENTS);
  it('keeps every row for null', () => {
    expect(rowsForAgent(rows, null)).toHaveLength(rows.length);
  });
  it("keeps the agent's own rows and DMs sent to it", () => {
    expect(rowsForAgent(rows, 2).map((r) => r.text)).toEqual([
      'sent its interfaces to agent 2 (unblocked)',
      'read the board — got an interface it needed',
      'posted its interfaces (nothing new)',
    ]);
    expect(rowsForAgent(rows, 1).map((r) => `${r.agent}:${r.kind}`)).toEqual(['1:complete', '1:post', '0:dm']);
    expect(rowsForAgent(rows, 7)).toEqual([]);
  });
});

describe('episodeSummary', () => {
  const modules = [
    { tests: 2, dep: -1, work: 4, luck: false },
    { tests: 3, dep: 0, work: 3, luck: false },
    { tests: 5, dep: -1, work: 1, luck: true },
  ];

  it('reports an early finish when every module completed', () => {
    const s = episodeSummary([ev(2, 0, 'complete', 0, -1, true), ev(6, 1, 'complete', 2, -1, true), ev(8, 0, 'complete', 1, -1, true)], modules, 12);
    expect(s.finished).toBe(true);
    expect(s.end).toBe(9);
    expect(s.text).toBe('finished at minute 9');
    expect(s.completions).toEqual([
      { minute: 3, module: 0 },
      { minute: 7, module: 2 },
      { minute: 9, module: 1 },
    ]);
    expect(s.share).toBe(1);
  });

  it('reports the share of tests passing when cut at the deadline', () => {
    const s = episodeSummary([ev(0, 0, 'work', 0), ev(2, 0, 'complete', 0, -1, true), ev(7, 1, 'complete', 1, -1, true)], modules, 8);
    expect(s.finished).toBe(false);
    expect(s.end).toBe(8);
    expect(s.modulesDone).toBe(2);
    expect(s.testsPassing).toBe(5);
    expect(s.testsTotal).toBe(10);
    expect(s.text).toBe('cut at the deadline, 50% of tests passing');
  });

  it('handles an episode where nothing finished, and duplicate completions', () => {
    expect(episodeSummary([], modules, 5).text).toBe('cut at the deadline, 0% of tests passing');
    const dup = episodeSummary([ev(1, 0, 'complete', 2, -1, true), ev(3, 1, 'complete', 2, -1, true)], modules, 5);
    expect(dup.modulesDone).toBe(1);
    expect(dup.completions).toEqual([{ minute: 2, module: 2 }]);
    expect(dup.text).toBe('cut at the deadline, 50% of tests passing');
    expect(episodeSummary([ev(1, 0, 'complete', 9, -1, true)], modules, 5).modulesDone).toBe(0);
  });
});

describe('scheduleStatus', () => {
  it('says where training is on a growing deadline', () => {
    const s = scheduleStatus(9, 100, 10, 24, 'rlcr');
    expect(s.text).toBe('update 10 of 100 — deadline now 10 min, growing to 24');
    expect(s.progress).toBeCloseTo(0.1);
  });
  it('says how many agents play while the team schedule grows the team, and nothing once it is whole', () => {
    expect(scheduleStatus(9, 100, 10, 24, 'rlcr', { playing: 3, of: 8 }).text).toBe(
      'update 10 of 100 — deadline now 10 min, growing to 24; 3 of 8 agents playing, the team growing',
    );
    expect(scheduleStatus(0, 10, 24, 24, 'rlcr', { playing: 5, of: 8 }).text).toBe('update 1 of 10 — deadline 24 min; 5 of 8 agents playing, the team growing');
    expect(scheduleStatus(9, 100, 10, 24, 'rlcr', { playing: 8, of: 8 }).text).toBe('update 10 of 100 — deadline now 10 min, growing to 24');
  });
  it('handles a fixed deadline and the imitation phase', () => {
    expect(scheduleStatus(0, 10, 24, 24, 'rlcr').text).toBe('update 1 of 10 — deadline 24 min');
    expect(scheduleStatus(0, 10, 24, 24, 'prior').text).toContain('imitating');
  });
});

describe('MessageBoard and Countdown render', () => {
  // Server rendering reads zustand's initial state, so the store is replaced by a plain snapshot here.
  async function render(last: unknown, selectedAgent: number | null) {
    vi.resetModules();
    const state = {
      last,
      episode: last,
      tick: 1000,
      selectedAgent,
      selectAgent: () => {},
      playing: true,
      speed: 4,
      config: { agents: 3, tmaxEnd: 24 },
      view: { presenter: false },
    };
    vi.doMock('../store/store', () => ({
      useApp: (sel: (s: typeof state) => unknown) => sel(state),
      selectLast: (s: typeof state) => s.last,
      selectEpisode: (s: typeof state) => s.episode,
      selectTick: (s: typeof state) => s.tick,
      selectPlaying: (s: typeof state) => s.playing,
      selectSpeed: (s: typeof state) => s.speed,
      selectSelectedAgent: (s: typeof state) => s.selectedAgent,
      selectConfig: (s: typeof state) => s.config,
      selectShownConfig: (s: typeof state) => s.config,
    }));
    const { createElement } = await import('react');
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { MessageBoard } = await import('./MessageBoard');
    const { Countdown } = await import('./Countdown');
    const out = { board: renderToStaticMarkup(createElement(MessageBoard)), clock: renderToStaticMarkup(createElement(Countdown)) };
    vi.doUnmock('../store/store');
    return out;
  }

  it('render an empty state before the first update', async () => {
    const { board, clock } = await render(null, null);
    expect(board).toContain('data-testid="message-board"');
    expect(board).toContain('Start training');
    expect(clock).toContain('data-testid="countdown"');
    expect(clock).toContain('Start training');
  });

  it('render the filtered feed and the clock after an update', async () => {
    const metrics = { update: 4, tmax: 8, phase: 'rlcr' };
    const modules = [2, 3, 5, 1, 4, 5].map((tests) => ({ tests, dep: -1, work: 4, luck: false }));
    const { board, clock } = await render({ metrics, events: [...EVENTS, ev(5, 2, 'complete', 0, -1, true)], modules, total: 50 }, 2);
    expect(board).toContain('role="log"');
    expect(board).toContain('aria-live="off"');
    expect(board).toContain('<option value="2" selected="">agent 2</option>');
    expect(board).toContain('sent its interfaces to agent 2 (unblocked)');
    expect(board).not.toContain('claimed module 5');
    expect(clock).toContain('2 of 6 modules done: cut at the deadline, 30% of tests passing');
    expect(clock).toContain('update 5 of 50 — deadline now 8 min, growing to 24');
    expect(clock).toContain('✓4');
    // No unofficial board: one feed, no column of its own; the audit log of the whole episode.
    expect(board).not.toContain('data-testid="side-feed"');
    expect(board).toContain('data-testid="audit-csv"');
    expect(board).toContain('data-rows="4"');
  });

  it('render the unofficial board beside the public one, caught posts and blocked attempts marked, text as text', async () => {
    const metrics = { update: 0, tmax: 8, phase: 'rlcr' };
    const events: SimEvent[] = [
      { ...ev(0, 1, 'side', -1, -1, true), carried: 1 },
      { ...ev(1, 2, 'side', -1, -1, false), carried: 0, caught: true },
      { ...ev(1, 0, 'attempt', -1, 2), carried: 0 },
      { ...ev(2, 0, 'dm', -1, 1, true), carried: 1 },
    ];
    const { board } = await render({ metrics, events, modules: [], total: 5 }, null);
    expect(board).toContain('data-testid="board-columns"');
    const side = board.slice(board.indexOf('data-testid="side-feed"'));
    expect((side.match(/class="board-row board-side/g) ?? []).length).toBe(2);
    expect(side).toContain('class="board-row board-side caught"');
    expect(side).toContain('<span class="board-tag caught">caught</span>');
    const sanctioned = board.slice(board.indexOf('data-testid="board-feed"'), board.indexOf('data-testid="side-feed"'));
    expect(sanctioned).toContain('<span class="board-tag blocked">blocked</span>tried to message agent 2 — blocked by the channel policy');
    expect(sanctioned).not.toContain('board-side');
    expect(board).toContain('data-rows="4"');
    expect(board).toContain('4 rows: 1 allowed, 2 unofficial (1 caught), 1 blocked');
  });
});

describe('moduleProgress', () => {
  it('gives partial credit for counted work, none for collisions or unfinished luck modules', () => {
    const mods = [
      { tests: 4, dep: -1, work: 4, luck: false },
      { tests: 3, dep: -1, work: 1, luck: true },
      { tests: 2, dep: -1, work: 2, luck: false },
    ];
    const p = moduleProgress(
      [
        ev(0, 0, 'work', 0),
        ev(0, 1, 'collide', 0),
        ev(1, 0, 'work', 0),
        ev(1, 1, 'work', 1),
        ev(2, 1, 'work', 1),
        ev(2, 2, 'work', 2),
        ev(3, 2, 'work', 2),
        ev(3, 2, 'complete', 2, -1, true),
      ],
      mods,
    );
    expect(p.map((m) => m.passing)).toEqual([2, 0, 2]);
    expect(p.map((m) => m.worked)).toEqual([2, 2, 2]);
    expect(p[2].done).toBe(true);
  });
});

describe('completionsByMinute', () => {
  it('joins completions of one minute into one label, in minute and module order', () => {
    expect(
      completionsByMinute([
        { minute: 9, module: 10 },
        { minute: 3, module: 2 },
        { minute: 9, module: 5 },
      ]),
    ).toEqual([
      { minute: 3, modules: [2] },
      { minute: 9, modules: [5, 10] },
    ]);
    expect(completionsByMinute([])).toEqual([]);
  });
});
