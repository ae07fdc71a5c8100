import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../rl/config';
import { CHART, chartScales, placeLabels, scheduleSeries, seriesPath, textWidth } from './geometry';
import { goldenJson } from './golden';

describe('view geometry', () => {
  it('maps the first and last update to the plot edges and return 0..1 bottom to top', () => {
    const { x, y } = chartScales(CHART, 101, 0, 1);
    expect(x(0)).toBe(CHART.margin.left);
    expect(x(100)).toBe(CHART.width - CHART.margin.right);
    expect(y(0)).toBe(CHART.height - CHART.margin.bottom);
    expect(y(1)).toBe(CHART.margin.top);
  });

  it('draws a path through every point', () => {
    const d = seriesPath(
      [
        [0, 0],
        [1, 1],
        [2, 0.5],
      ],
      (v) => v * 10,
      (v) => v * 100,
    );
    expect(d).toBe('M0,0L10,100L20,50');
  });

  it('follows the deadline schedule from start to end', () => {
    const c = { ...defaultConfig(), updates: 100, tmaxStart: 6, tmaxEnd: 30, tmaxWarmup: 20 };
    const pts = scheduleSeries(c);
    expect(pts[0]).toEqual([0, 6]);
    expect(pts.find((p) => p[0] === 20)?.[1]).toBe(6);
    expect(pts[pts.length - 1]).toEqual([99, 30]);
  });
});

describe('placeLabels', () => {
  it('moves a label that would overlap its neighbour to the next row, and drops what fits nowhere', () => {
    const items = [
      { x: 10, width: 20 },
      { x: 20, width: 20 },
      { x: 25, width: 20 },
      { x: 60, width: 20 },
    ];
    expect(placeLabels(items, 2)).toEqual([0, 1, -1, 0]);
    expect(placeLabels(items, 3)).toEqual([0, 1, 2, 0]);
  });

  it('never puts two overlapping labels in one row', () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ x: (i * 37) % 200, width: 10 + (i % 4) * 6 }));
    const lanes = placeLabels(items, 3);
    for (let a = 0; a < items.length; a++)
      for (let b = a + 1; b < items.length; b++) {
        if (lanes[a] < 0 || lanes[a] !== lanes[b]) continue;
        expect(Math.abs(items[a].x - items[b].x)).toBeGreaterThanOrEqual((items[a].width + items[b].width) / 2);
      }
  });

  it('places the labels it is told to first, and the rest around them', () => {
    const items = [
      { x: 10, width: 20 },
      { x: 20, width: 20 },
      { x: 25, width: 20 },
      { x: 60, width: 20 },
    ];
    // Without priority the third label is dropped; placed first it keeps the top row.
    expect(placeLabels(items, 2, 3, [2])).toEqual([1, -1, 0, 0]);
    expect(placeLabels(items, 2, 3, [])).toEqual(placeLabels(items, 2));
  });
});

/**
 * Golden file: the pixels the charts put things at, from fixed inputs (rounded to 0.01 px): the
 * curve chart's ticks, a path, the schedule editor's line for each deadline shape and a row of marker
 * labels. After an intended change, `npx vitest run src/ui/geometry.test.ts -u` rewrites it.
 */
describe('view geometry, golden', () => {
  it('puts ticks, lines and labels where they were', async () => {
    const curve = chartScales(CHART, 101, -0.2, 1);
    const ticks = (s: { ticks(n: number): number[] }, at: (v: number) => number, n: number) => s.ticks(n).map((t) => [t, at(t)]);
    // The schedule editor's chart: y up to 12% above the longest deadline.
    const schedule = (over: Partial<ReturnType<typeof defaultConfig>>) => {
      const c = { ...defaultConfig(), updates: 24, tmaxStart: 6, tmaxEnd: 30, tmaxWarmup: 4, ...over };
      const { x, y } = chartScales(CHART, c.updates, 0, Math.max(c.tmaxStart, c.tmaxEnd) * 1.12);
      return scheduleSeries(c).map(([u, t]) => [x(u), y(t)]);
    };
    const labels = ['tmaxEnd 30', 'agents 8', 'lr 0.001', 'critic on', 'tmaxStart 4', 'structure ceo'];
    const labelXs = [60, 90, 100, 300, 310, 600];
    const layout = {
      curve: {
        x: ticks(curve.x, curve.x, 8),
        y: ticks(curve.y, curve.y, 5),
        path: seriesPath(
          [
            [0, 0],
            [25, 0.4],
            [50, -0.1],
            [100, 0.9],
          ],
          curve.x,
          curve.y,
        ),
      },
      schedule: {
        linear: schedule({ tmaxShape: 'linear' }),
        exponential: schedule({ tmaxShape: 'exponential' }),
        step: schedule({ tmaxShape: 'step', tmaxSteps: 3 }),
        afterImitation: schedule({ prior: 4 }),
      },
      markerLanes: placeLabels(
        labels.map((t, i) => ({ x: labelXs[i], width: textWidth(t, 10) })),
        2,
      ),
    };
    await expect(goldenJson(layout)).toMatchFileSnapshot('./__golden__/geometry.json');
  });
});
