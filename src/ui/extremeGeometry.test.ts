/**
 * One property over all the charts' geometry (geometry.ts, minMaxSeries.ts, ChunkedPath's stretches,
 * the work curves' small charts, the inference curve, the DM graph's layout): whatever numbers reach
 * it, every coordinate it gives is a finite number. Run files refuse such numbers where a run
 * enters (core/runChecks); this is the views' own guard. The inputs are drawn by a seeded generator
 * from a pool of extreme values (1e308, -1e308, NaN, the infinities, null, -0, the smallest
 * subnormal) mixed with ordinary ones, in empty, one-point and longer series: hand-written rather
 * than a property-testing library, so the cases are the same on every run and no dependency is added.
 */
import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import type { UpdatePoint } from '../sim/race';
import { chunkedLine, StretchPaths } from './ChunkedPath';
import { aggregateDms, layoutGraph, nodeRadius, type DmEdge, type GraphLayout } from './dmGraphLayout';
import { CHART, chartScales, seriesPath, type Frame } from './geometry';
import { InferenceCurve, inferenceDomain, inferenceSeries } from './inferenceCurve';
import { MinMaxSeries } from './minMaxSeries';

/** mulberry32: a small seeded generator, so every run draws the same cases. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXTREMES = [1e308, -1e308, NaN, Infinity, -Infinity, null as unknown as number, -0, 0, 5e-324, 1, -1, 1e15, 1e16];

/** A number: half the time an extreme one, else an ordinary one (within +-10, or a large one). */
function value(r: () => number): number {
  const u = r();
  if (u < 0.5) return EXTREMES[Math.floor(r() * EXTREMES.length)];
  if (u < 0.9) return (r() - 0.5) * 20;
  return (r() - 0.5) * 1e200;
}

/** A series length: empty, one point, or a few to a few hundred. */
function length(r: () => number): number {
  const u = r();
  return u < 0.15 ? 0 : u < 0.3 ? 1 : Math.floor(r() * (u < 0.9 ? 40 : 400));
}

/** Every number an SVG path holds, and whether the text is only M/L commands with numbers (Z ends a lone point: d3 draws it so). */
function pathNumbers(d: string): { numbers: number[]; wellFormed: boolean } {
  const wellFormed = /^(?:M[^MLZ,]+,[^MLZ,]+(?:L[^MLZ,]+,[^MLZ,]+)*Z?)*$/.test(d);
  const numbers = d
    .split(/[MLZ,]/)
    .filter(Boolean)
    .map((t) => (/^-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/.test(t) ? Number(t) : NaN));
  return { numbers, wellFormed };
}

function expectFinitePath(d: string, what: string): void {
  const { numbers, wellFormed } = pathNumbers(d);
  expect(wellFormed, `${what}: ${d.slice(0, 200)}`).toBe(true);
  for (const n of numbers) expect(Number.isFinite(n), `${what}: ${d.slice(0, 200)}`).toBe(true);
}

function expectFiniteLayout(layout: GraphLayout, what: string): void {
  for (const p of [...layout.nodes, ...(layout.board ? [layout.board] : [])]) {
    expect(Number.isFinite(p.x) && Number.isFinite(p.y), `${what}: ${JSON.stringify(p)}`).toBe(true);
  }
}

const frame = (r: () => number): Frame => (r() < 0.7 ? CHART : { width: 80 + r() * 600, height: 30 + r() * 200, margin: CHART.margin });

const CASES = 400;

describe('the charts draw only finite coordinates, whatever numbers reach them', () => {
  it('a series path in the chart scales (chartScales, seriesPath), and the scales ticks', () => {
    const r = rng(26);
    for (let c = 0; c < CASES; c++) {
      const points = Array.from({ length: length(r) }, (_, i): [number, number] => [r() < 0.9 ? i : value(r), value(r)]);
      const { x, y } = chartScales(frame(r), r() < 0.5 ? points.length : value(r), value(r), value(r));
      expectFinitePath(seriesPath(points, x, y), `case ${c}`);
      for (const t of y.ticks(5)) expect(Number.isFinite(y(t)), `case ${c} tick ${t}`).toBe(true);
      for (const t of x.ticks(5)) expect(Number.isFinite(x(t)), `case ${c} tick ${t}`).toBe(true);
    }
  });

  it("a long line's stretches in the training curve's scales (MinMaxSeries, ChunkedPath's StretchPaths)", () => {
    const r = rng(27);
    let drawn = 0;
    for (let c = 0; c < CASES / 4; c++) {
      const line = r() < 0.5 ? chunkedLine() : new MinMaxSeries(1 + Math.floor(r() * 4));
      const n = length(r);
      for (let i = 0; i < n; i++) line.push(i, value(r));
      // As Curves.tsx: the relative view spans the lines' extremes, the other 0 to 1.
      const relative = r() < 0.5;
      const { x, y } = chartScales(frame(r), Math.max(line.count, 2), relative ? Math.min(-0.2, line.min) : 0, relative ? Math.max(0.1, line.max) : 1);
      const ds = new StretchPaths().of(line, x, y, `${x.domain()}|${y.domain()}`);
      ds.forEach((d, k) => expectFinitePath(d, `case ${c} stretch ${k}`));
      drawn += ds.length;
      // min and max are numbers or the empty series' infinities, never NaN.
      expect(Number.isNaN(line.min) || Number.isNaN(line.max)).toBe(false);
    }
    expect(drawn).toBeGreaterThan(CASES / 4);
  });

  it("the work curves' small charts (a MinMaxSeries from 0 to at least 1)", () => {
    const r = rng(28);
    for (let c = 0; c < CASES; c++) {
      const series = new MinMaxSeries(100);
      const n = length(r);
      for (let i = 0; i < n; i++) series.push(i, value(r) ?? 0);
      // As WorkCurves.tsx's Mini.
      const { x, y } = chartScales(frame(r), Math.max(2, n), 0, Math.max(1, series.count ? series.max : 1));
      expectFinitePath(seriesPath(series.points(), x, y), `case ${c}`);
      expect(Number.isFinite(y(0))).toBe(true);
      for (const t of y.ticks(2)) expect(Number.isFinite(y(t))).toBe(true);
    }
  });

  it('the inference curve (rolling means of extreme metrics)', () => {
    const r = rng(29);
    let drawn = 0;
    for (let c = 0; c < CASES / 4; c++) {
      const metrics: UpdatePoint[] = Array.from({ length: length(r) }, (_, i) => ({
        update: i,
        tmax: r() < 0.8 ? 1 + Math.floor(r() * 24) : value(r),
        ret: value(r),
        useful: value(r),
        messages: value(r),
        handoffs: value(r),
      }));
      const pts = new InferenceCurve().of(metrics, 1 + Math.floor(r() * 30), 1 + Math.floor(r() * 5));
      if (pts.length < 2) continue; // the panel shows a sentence instead
      drawn++;
      // As OrganisationsPanel.tsx's InferenceScaling.
      const x = scaleLinear()
        .domain([pts[0].update, pts[pts.length - 1].update])
        .range([44, 620]);
      const y = scaleLinear().domain(inferenceDomain(pts)).nice().range([190, 12]);
      expectFinitePath(
        seriesPath(
          inferenceSeries(pts, (p) => p.parallelism),
          x,
          y,
        ),
        `case ${c} parallelism`,
      );
      expectFinitePath(
        seriesPath(
          inferenceSeries(pts, (p) => p.messages / 10),
          x,
          y,
        ),
        `case ${c} messages`,
      );
    }
    expect(drawn).toBeGreaterThan(CASES / 8);
  });

  it("the DM graph's layout (extreme sizes, radii, counts, groups and a warm start)", () => {
    const r = rng(30);
    let nodes = 0;
    for (let c = 0; c < CASES / 8; c++) {
      const agents = r() < 0.8 ? Math.floor(r() * 17) : value(r);
      const n = Number.isFinite(agents) ? Math.min(20, Math.max(0, Math.floor(agents))) : 4;
      const edges: DmEdge[] = Array.from({ length: Math.floor(r() * 10) }, () => {
        const from = Math.floor(r() * Math.max(1, n));
        const to = Math.floor(r() * Math.max(1, n));
        const count = r() < 0.5 ? value(r) : 1 + Math.floor(r() * 9);
        return { from, to, count, forward: count, backward: 0, usefulCount: 0, useful: false };
      });
      const options = {
        margin: r() < 0.7 ? undefined : value(r),
        radii: r() < 0.5 ? undefined : Array.from({ length: n }, () => (r() < 0.5 ? nodeRadius(value(r)) : value(r))),
        groups: r() < 0.5 ? undefined : Array.from({ length: n }, () => (r() < 0.7 ? Math.floor(r() * 3) : value(r))),
        boardAgents: r() < 0.5 ? undefined : [0, 1, value(r)],
        from: r() < 0.7 ? undefined : { nodes: Array.from({ length: n }, () => ({ x: value(r), y: value(r) })), board: { x: value(r), y: value(r) } },
        ticks: 20,
      };
      const width = r() < 0.6 ? 300 + r() * 300 : value(r);
      const height = r() < 0.6 ? 200 + r() * 200 : value(r);
      const layout = layoutGraph(agents, edges, width, height, options);
      expectFiniteLayout(layout, `case ${c}`);
      nodes += layout.nodes.length;
    }
    expect(nodes).toBeGreaterThan(CASES / 8);
  });

  it('the DM graph of an empty log, of one DM and of a log with agents beyond the team', () => {
    const dm = (agent: number, target: number) => ({ t: 0, agent, kind: 'dm' as const, module: -1, target, useful: true });
    expect(layoutGraph(0, aggregateDms([], 0), 400, 300)).toEqual({ nodes: [], board: null });
    expectFiniteLayout(layoutGraph(2, aggregateDms([dm(0, 1)], 2), 400, 300), 'one DM');
    expectFiniteLayout(layoutGraph(2, aggregateDms([dm(0, 1e308), dm(NaN, 1)], 2), 400, 300), 'agents beyond the team');
    expectFiniteLayout(layoutGraph(1, [], 0, 0, { boardAgents: [] }), 'a box of no size');
  });

  it('draws ordinary numbers as before: a non-finite point breaks the line, a huge one is drawn at the limit', () => {
    const id = (v: number) => v;
    expect(
      seriesPath(
        [
          [0, 1],
          [1, NaN],
          [2, 3],
          [3, 4],
        ],
        id,
        id,
      ),
    ).toBe('M0,1ZM2,3L3,4');
    expect(
      seriesPath(
        [
          [0, 1],
          [1, 1e308],
        ],
        id,
        id,
      ),
    ).toBe('M0,1L1,1000000');
    expect(seriesPath([], id, id)).toBe('');
    const { y } = chartScales(CHART, 10, -1e308, 1e308);
    expect(y.domain().every(Number.isFinite)).toBe(true);
    expect(chartScales(CHART, NaN, NaN, NaN).y.domain()).toEqual([0, 1]);
  });
});
