import { describe, expect, it, vi } from 'vitest';
import type { SimEvent } from '../sim/events';
import {
  aggregateDms,
  attemptLinks,
  boardLinks,
  edgeSegment,
  layoutGraph,
  layoutJob,
  nodeRadius,
  recentDms,
  sentCounts,
  sideLinks,
  structureLinks,
} from './dmGraphLayout';
import { goldenJson } from './golden';

const dm = (t: number, agent: number, target: number, useful = false): SimEvent => ({ t, agent, kind: 'dm', module: -1, target, useful });
const ev = (t: number, agent: number, kind: SimEvent['kind']): SimEvent => ({ t, agent, kind, module: -1, target: -1, useful: false });

describe('aggregateDms', () => {
  it('sums both directions per pair and keeps usefulness', () => {
    const events = [dm(0, 0, 1), dm(1, 1, 0, true), dm(2, 0, 1), dm(2, 2, 3), ev(3, 2, 'work'), dm(4, 3, 2)];
    const edges = aggregateDms(events, 4);
    expect(edges).toEqual([
      { from: 0, to: 1, count: 3, forward: 2, backward: 1, usefulCount: 1, useful: true },
      { from: 2, to: 3, count: 2, forward: 1, backward: 1, usefulCount: 0, useful: false },
    ]);
    expect(sentCounts(events, 4)).toEqual([2, 1, 1, 1]);
  });

  it('ignores self-DMs, DMs to nobody and agents outside the swarm', () => {
    const events = [dm(0, 1, 1, true), dm(0, 0, -1, true), dm(1, 2, 7), dm(1, -1, 0), dm(2, 0, 2)];
    expect(aggregateDms(events, 3)).toEqual([{ from: 0, to: 2, count: 1, forward: 1, backward: 0, usefulCount: 0, useful: false }]);
    expect(sentCounts(events, 3)).toEqual([1, 0, 0]);
  });
});

describe('boardLinks and recentDms', () => {
  it('counts posts and reads per agent', () => {
    expect(boardLinks([ev(0, 1, 'post'), ev(1, 1, 'read'), ev(2, 0, 'read'), ev(2, 2, 'work')], 3)).toEqual([
      { agent: 0, posts: 0, reads: 1 },
      { agent: 1, posts: 1, reads: 1 },
    ]);
  });

  it('keeps only real DMs of the last minutes of the episode', () => {
    const events = [dm(1, 0, 1), dm(6, 1, 0, true), dm(7, 1, 1), dm(8, 0, 2), ev(9, 2, 'work')];
    expect(recentDms(events, 3, 3)).toEqual([{ t: 8, from: 0, to: 2, useful: false }]);
    expect(recentDms(events, 3, 4).map((m) => m.t)).toEqual([6, 8]);
    expect(recentDms([], 3)).toEqual([]);
  });
});

describe('unsanctioned traffic: the unofficial board and blocked messages', () => {
  const side = (t: number, agent: number, useful: boolean, caught?: true): SimEvent => ({ t, agent, kind: 'side', module: -1, target: -1, useful, caught });
  const attempt = (t: number, agent: number, target: number): SimEvent => ({ t, agent, kind: 'attempt', module: -1, target, useful: false });

  it('counts posts on the unofficial board per poster, with the caught and the useful ones', () => {
    const events = [side(0, 2, true), side(1, 2, false, true), side(1, 0, false), ev(2, 0, 'post'), dm(2, 2, 2), side(3, 9, true)];
    expect(sideLinks(events, 3)).toEqual([
      { agent: 0, posts: 1, caught: 0, useful: 0 },
      { agent: 2, posts: 2, caught: 1, useful: 1 },
    ]);
    expect(sideLinks([dm(0, 0, 1), ev(1, 1, 'post')], 3)).toEqual([]);
  });

  it('counts blocked messages per sender and intended receiver, posts as to -1, and none of them as DMs', () => {
    const events = [attempt(0, 1, 2), attempt(1, 1, 2), attempt(1, 2, -1), attempt(2, 0, 0), attempt(2, 0, 7), attempt(3, 1, -1), dm(3, 1, 2)];
    expect(attemptLinks(events, 3)).toEqual([
      { from: 1, to: -1, count: 1 },
      { from: 1, to: 2, count: 2 },
      { from: 2, to: -1, count: 1 },
    ]);
    expect(aggregateDms(events, 3)).toEqual([{ from: 1, to: 2, count: 1, forward: 1, backward: 0, usefulCount: 0, useful: false }]);
  });

  it('places the unofficial board as a node of its own, apart from the board, only when asked', () => {
    const edges = aggregateDms([dm(0, 0, 1), dm(1, 1, 2)], 4);
    const without = layoutGraph(4, edges, 480, 300, { boardAgents: [0], ticks: 100 });
    expect('side' in without).toBe(false);
    const radii = [12, 12, 12, 12];
    const laid = layoutGraph(4, edges, 480, 300, { boardAgents: [0], sideAgents: [1, 3], radii, ticks: 100, margin: 6 });
    expect(laid.side).toBeDefined();
    const { side: s, board } = laid as { side: { x: number; y: number }; board: { x: number; y: number } };
    expect(Math.hypot(s.x - board.x, s.y - board.y)).toBeGreaterThan(20);
    for (const p of [s, ...laid.nodes]) {
      expect(p.x).toBeGreaterThanOrEqual(6);
      expect(p.x).toBeLessThanOrEqual(480 - 6);
      expect(p.y).toBeGreaterThanOrEqual(6);
      expect(p.y).toBeLessThanOrEqual(300 - 6);
    }
    expect(layoutGraph(4, edges, 480, 300, { boardAgents: [0], sideAgents: [1, 3], radii, ticks: 100, margin: 6 })).toEqual(laid);
    // Warm-started, it starts where it was.
    const warm = layoutGraph(4, edges, 480, 300, { boardAgents: [0], sideAgents: [1, 3], radii, ticks: 30, margin: 6, from: laid });
    expect(Math.hypot(warm.side!.x - s.x, warm.side!.y - s.y)).toBeLessThan(40);
  });
});

describe('layoutGraph', () => {
  const edges = aggregateDms([dm(0, 0, 1), dm(1, 1, 0, true), dm(2, 1, 2), dm(3, 3, 4), dm(3, 4, 5), dm(4, 5, 0)], 8);

  it('keeps every node (with its radius and a margin) inside the box', () => {
    for (const [w, h] of [
      [640, 380],
      [200, 150],
      [120, 600],
    ]) {
      const radii = Array.from({ length: 8 }, (_, i) => nodeRadius(i * 3));
      const margin = 6;
      const { nodes, board } = layoutGraph(8, edges, w, h, { boardAgents: [0, 2, 5], radii, margin });
      expect(nodes).toHaveLength(8);
      expect(board).not.toBeNull();
      nodes.forEach((p, i) => {
        expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true);
        expect(p.x - radii[i]).toBeGreaterThanOrEqual(margin - 1e-9);
        expect(p.x + radii[i]).toBeLessThanOrEqual(w - margin + 1e-9);
        expect(p.y - radii[i]).toBeGreaterThanOrEqual(margin - 1e-9);
        expect(p.y + radii[i]).toBeLessThanOrEqual(h - margin + 1e-9);
      });
      expect(board!.x).toBeGreaterThanOrEqual(0);
      expect(board!.x).toBeLessThanOrEqual(w);
      expect(board!.y).toBeGreaterThanOrEqual(0);
      expect(board!.y).toBeLessThanOrEqual(h);
    }
  });

  it('warm-started from the previous layout, keeps agents near where they were', () => {
    const cold = layoutGraph(8, edges, 640, 380, { boardAgents: [1, 3], ticks: 150 });
    const more = aggregateDms([dm(0, 0, 1), dm(1, 1, 0, true), dm(2, 1, 2), dm(3, 3, 4), dm(3, 4, 5), dm(4, 5, 0), dm(5, 6, 7)], 8);
    const warm = layoutGraph(8, more, 640, 380, { boardAgents: [1, 3], ticks: 50, from: cold });
    const moved = warm.nodes.reduce((a, p, i) => a + Math.hypot(p.x - cold.nodes[i].x, p.y - cold.nodes[i].y), 0) / 8;
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(40);
    expect(layoutGraph(8, more, 640, 380, { boardAgents: [1, 3], ticks: 50, from: cold })).toEqual(warm);
  });

  it('as a job of ticks, run in slices, gives the layout of one synchronous run; the job counts its ticks', () => {
    const whole = layoutGraph(8, edges, 640, 380, { boardAgents: [1, 3], ticks: 40 });
    const job = layoutJob(8, edges, 640, 380, { boardAgents: [1, 3], ticks: 40 });
    let ticks = 0;
    while (!job.done) {
      job.tick();
      ticks++;
    }
    expect(ticks).toBe(40);
    job.tick();
    expect(job.result()).toEqual(whole);
    const partial = layoutJob(8, edges, 640, 380, { boardAgents: [1, 3], ticks: 40 });
    for (let i = 0; i < 10; i++) partial.tick();
    expect(partial.done).toBe(false);
    expect(partial.result()).not.toEqual(whole);
    expect(layoutJob(0, [], 640, 380).done).toBe(true);
  });

  it('with groups (islands), keeps each group together, apart from the others', () => {
    const islandEdges = aggregateDms([dm(0, 0, 1), dm(1, 2, 3), dm(2, 4, 5), dm(3, 6, 7)], 8);
    const groups = [0, 0, 0, 0, 1, 1, 1, 1];
    const { nodes } = layoutGraph(8, islandEdges, 640, 380, { groups, ticks: 150 });
    const centre = (g: number) => {
      const ps = nodes.filter((_, i) => groups[i] === g);
      return { x: ps.reduce((a, p) => a + p.x, 0) / ps.length, y: ps.reduce((a, p) => a + p.y, 0) / ps.length };
    };
    const spread = (g: number) => Math.max(...nodes.filter((_, i) => groups[i] === g).map((p) => Math.hypot(p.x - centre(g).x, p.y - centre(g).y)));
    const apart = Math.hypot(centre(0).x - centre(1).x, centre(0).y - centre(1).y);
    expect(apart).toBeGreaterThan(spread(0));
    expect(apart).toBeGreaterThan(spread(1));
  });

  it('is deterministic', () => {
    const a = layoutGraph(8, edges, 640, 380, { boardAgents: [1, 3] });
    const b = layoutGraph(8, edges, 640, 380, { boardAgents: [1, 3] });
    expect(b).toEqual(a);
    expect(layoutGraph(8, [], 640, 380)).toEqual(layoutGraph(8, [], 640, 380));
  });

  it('handles empty and single-agent swarms', () => {
    expect(layoutGraph(0, [], 100, 100)).toEqual({ nodes: [], board: null });
    const one = layoutGraph(1, [], 100, 100);
    expect(one.nodes).toHaveLength(1);
    expect(one.board).toBeNull();
  });
});

describe('edgeSegment', () => {
  it('shortens the segment by both radii', () => {
    const s = edgeSegment({ x: 0, y: 0 }, { x: 100, y: 0 }, 10, 20, 0, 0);
    expect(s).toEqual({ x1: 10, y1: 0, x2: 80, y2: 0 });
  });
});

describe('DmGraph render', () => {
  // Server rendering reads zustand's initial state, so the store is replaced by a plain snapshot here.
  async function render(last: unknown, selectedAgent: number | null): Promise<string> {
    vi.resetModules();
    const state = { episode: last, tick: 1000, selectedAgent, selectAgent: () => {} };
    vi.doMock('../store/store', () => ({
      useApp: (sel: (s: typeof state) => unknown) => sel(state),
      selectEpisode: (s: typeof state) => s.episode,
      selectTick: (s: typeof state) => s.tick,
      selectSelectedAgent: (s: typeof state) => s.selectedAgent,
    }));
    const { createElement } = await import('react');
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { DmGraph } = await import('./DmGraph');
    const html = renderToStaticMarkup(createElement(DmGraph));
    vi.doUnmock('../store/store');
    return html;
  }

  it('shows an empty state before the first update', async () => {
    const html = await render(null, null);
    expect(html).toContain('data-testid="dm-graph"');
    expect(html).toContain('Start training');
  });

  it('draws nodes, edges and the board, and fades what the selection does not touch', async () => {
    const events = [dm(0, 0, 1, true), dm(1, 1, 0), dm(2, 2, 3), ev(2, 1, 'post'), ev(3, 3, 'read'), ev(9, 0, 'work')];
    const html = await render({ metrics: { tmax: 10 }, events, modules: [], total: 1 }, 0);
    expect(html).toContain('Direct messages');
    expect(html).toContain('aria-label="agent 0, sent 1 messages"');
    expect(html).toContain('aria-label="agent 3, sent 0 messages"');
    expect((html.match(/role="button"/g) ?? []).length).toBe(4);
    expect(html).toContain('class="dm-edge useful highlighted"');
    expect(html).toContain('class="dm-edge plain faded"');
    // The pair 0-1 sent two messages, one a handoff: a grey line for both and a green core for the handoff.
    expect(html).toContain('class="dm-edge plain highlighted"');
    expect((html.match(/class="dm-edge /g) ?? []).length).toBe(3);
    expect((html.match(/class="dm-board-link/g) ?? []).length).toBe(2);
    expect(html).toContain('>board<');
    // Nothing is recent (the episode ends at minute 9), and server rendering assumes reduced motion.
    expect(html).not.toContain('animateMotion');
    // No unsanctioned traffic: nothing of it drawn, nothing of it in the legend.
    expect(html).not.toMatch(/dm-side|dm-attempt|dm-legend-/);
  });

  it('draws posts on the unofficial board to a node of its own, caught ones marked, and blocked messages apart, each in the legend', async () => {
    const events: SimEvent[] = [
      dm(0, 0, 1, true),
      { t: 1, agent: 1, kind: 'side', module: -1, target: -1, useful: true, carried: 1 },
      { t: 2, agent: 2, kind: 'side', module: -1, target: -1, useful: false, carried: 0, caught: true },
      { t: 2, agent: 2, kind: 'attempt', module: -1, target: 1, useful: false, carried: 0 },
      { t: 3, agent: 1, kind: 'attempt', module: -1, target: -1, useful: false, carried: 1 },
      ev(9, 0, 'work'),
    ];
    const html = await render({ metrics: { tmax: 10 }, events, modules: [], total: 1 }, null);
    expect((html.match(/data-testid="dm-side-board"/g) ?? []).length).toBe(1);
    expect((html.match(/data-testid="dm-side-edge"/g) ?? []).length).toBe(2);
    expect((html.match(/data-testid="dm-side-caught"/g) ?? []).length).toBe(1);
    expect((html.match(/data-testid="dm-attempt"/g) ?? []).length).toBe(2);
    expect(html).toContain('agent 2 → agent 1: 1 message blocked by the channel policy (nothing delivered)');
    expect(html).toContain('agent 1 → the board: 1 message blocked by the channel policy');
    expect(html).toContain('agent 2: 1 post on the unofficial board, 0 that unblocked someone, 1 caught by the monitor');
    for (const k of ['side', 'caught', 'attempt']) expect(html).toContain(`data-testid="dm-legend-${k}"`);
    // The attempts and side posts are not DMs: one DM edge only.
    expect((html.match(/class="dm-edge /g) ?? []).length).toBe(1);
    expect(html).toContain('2 posted on the unofficial board, 1 caught; 2 blocked by the channel policy');
  });
});

describe('structureLinks', () => {
  const ev = (t: number, agent: number, kind: 'hire' | 'fire' | 'assign' | 'dm', target: number, module = -1) => ({
    t,
    agent,
    kind,
    module,
    target,
    useful: true,
  });
  it('collects hires, fires and assignments per (agent, target, kind), with the modules assigned', () => {
    const links = structureLinks(
      [
        ev(0, 0, 'hire', 2),
        ev(1, 0, 'assign', 2, 4),
        ev(3, 0, 'assign', 2, 7),
        ev(5, 0, 'fire', 2),
        ev(5, 0, 'dm', 1),
        ev(6, 0, 'assign', 9, 1),
        ev(6, 0, 'hire', 0),
      ],
      4,
    );
    expect(links).toEqual([
      { from: 0, to: 2, kind: 'assign', count: 2, modules: [4, 7] },
      { from: 0, to: 2, kind: 'fire', count: 1, modules: [] },
      { from: 0, to: 2, kind: 'hire', count: 1, modules: [] },
    ]);
  });
});

describe('layoutGraph fills its box', () => {
  it('stretches a tight cluster over most of the panel', () => {
    const laid = layoutGraph(8, [], 600, 420, { ticks: 150 });
    const xs = laid.nodes.map((p) => p.x);
    const ys = laid.nodes.map((p) => p.y);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(0.5 * 600);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(0.5 * 420);
  });
});

/**
 * Golden file: the DM graph's picture of a fixed episode, laid out as the view lays it out (a 480 x 300
 * box, margin 6, 150 ticks from scratch, 50 warm), rounded to 0.01 px: the agents and the board, each
 * edge's segment, the same graph with one more pair warm-started from it, and as two islands. After
 * an intended change, `npx vitest run src/ui/dmGraphLayout.test.ts -u` rewrites it.
 */
describe('layoutGraph, golden', () => {
  it('lays out a fixed episode where it did', async () => {
    const agents = 6;
    const events = [
      dm(0, 0, 1, true),
      dm(1, 1, 0),
      dm(1, 0, 1),
      dm(2, 1, 2, true),
      dm(3, 2, 3),
      dm(3, 3, 2),
      dm(4, 4, 0),
      ev(2, 5, 'post'),
      ev(3, 3, 'read'),
      ev(4, 1, 'read'),
    ];
    const shape = (evs: SimEvent[]) => ({
      edges: aggregateDms(evs, agents),
      boardAgents: boardLinks(evs, agents).map((b) => b.agent),
      radii: sentCounts(evs, agents).map(nodeRadius),
    });
    const g = shape(events);
    const cold = layoutGraph(agents, g.edges, 480, 300, { boardAgents: g.boardAgents, radii: g.radii, margin: 6, ticks: 150 });
    const segments = g.edges.map((e) => edgeSegment(cold.nodes[e.from], cold.nodes[e.to], g.radii[e.from], g.radii[e.to]));
    const g2 = shape([...events, dm(5, 5, 4), dm(5, 4, 5)]);
    const warm = layoutGraph(agents, g2.edges, 480, 300, { boardAgents: g2.boardAgents, radii: g2.radii, margin: 6, ticks: 50, from: cold });
    const islands = layoutGraph(agents, g.edges, 480, 300, { radii: g.radii, margin: 6, ticks: 150, groups: [0, 0, 0, 1, 1, 1] });
    await expect(goldenJson({ radii: g.radii, cold, segments, warm, islands })).toMatchFileSnapshot('./__golden__/dmGraph-layout.json');
  });
});
