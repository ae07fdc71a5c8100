import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../rl/config';
import { CHART, chartScales, scheduleSeries, seriesPath } from './geometry';

describe('view geometry', () => {
  it('maps the first and last update to the plot edges and return 0..1 bottom to top', () => {
    const { x, y } = chartScales(CHART, 101, 0, 1);
    expect(x(0)).toBe(CHART.margin.left);
    expect(x(100)).toBe(CHART.width - CHART.margin.right);
    expect(y(0)).toBe(CHART.height - CHART.margin.bottom);
    expect(y(1)).toBe(CHART.margin.top);
  });

  it('draws a path through every point', () => {
    const d = seriesPath([[0, 0], [1, 1], [2, 0.5]], (v) => v * 10, (v) => v * 100);
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
