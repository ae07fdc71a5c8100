import { describe, expect, it } from 'vitest';
import { barChart, escapeXml, lineChart } from './svg';

/** Checks that tags nest and close properly and attributes are quoted: a small well-formedness test without a DOM. */
function wellFormed(svg: string): boolean {
  const stack: string[] = [];
  const tag = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = tag.exec(svg))) {
    if (/[<>]/.test(svg.slice(last, m.index))) return false;
    last = tag.lastIndex;
    const [, close, name, , self] = m;
    if (self) continue;
    if (close) {
      if (stack.pop() !== name) return false;
    } else stack.push(name);
  }
  return stack.length === 0 && !/[<>]/.test(svg.slice(last));
}

describe('SVG plots', () => {
  it('a line chart is well-formed SVG with one path per series, a band, axes and a legend', () => {
    const svg = lineChart({
      title: 'Return <vs> updates & more',
      xLabel: 'update',
      yLabel: 'return',
      series: [
        { name: 'growing', x: [0, 1, 2, 3], y: [0.1, 0.4, 0.6, 0.9], lo: [0, 0.3, 0.5, 0.8], hi: [0.2, 0.5, 0.7, 1] },
        { name: 'fixed', x: [0, 1, 2, 3], y: [0.1, NaN, 0.3, 0.5], dashed: true },
      ],
      refLines: [{ y: 0.9, label: '90%' }],
    });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(wellFormed(svg)).toBe(true);
    expect(svg.match(/class="series"/g)).toHaveLength(2);
    expect(svg).toContain('data-name="growing"');
    expect(svg).toContain('data-name="fixed"');
    expect(svg.match(/class="band"/g)).toHaveLength(1);
    expect(svg).toContain('stroke-dasharray="6 4"');
    expect(svg).toContain('Return &lt;vs&gt; updates &amp; more');
    expect(svg).toContain('>update</text>');
    expect(svg).toContain('class="ref"');
    expect(svg).toMatch(/<g class="legend">[\s\S]*>growing<\/text>[\s\S]*>fixed<\/text>/);
    // The gap at NaN splits the second line into two segments.
    const fixed = svg.match(/data-name="fixed" d="([^"]+)"/)![1];
    expect(fixed.match(/M/g)).toHaveLength(2);
  });

  it('a bar chart is well-formed with one bar per value and error bars', () => {
    const svg = barChart({
      title: 'Messages',
      yLabel: 'per agent-minute',
      series: ['trained', 'masked'],
      groups: [
        { label: 'parallel', values: { trained: { mean: 0.05, sd: 0.01 }, masked: { mean: 0 } } },
        { label: 'coupled', values: { trained: { mean: 0.2, sd: 0.02 } } },
      ],
    });
    expect(wellFormed(svg)).toBe(true);
    expect(svg.match(/class="bar"/g)).toHaveLength(3);
    expect(svg.match(/class="err"/g)).toHaveLength(2);
    expect(svg).toContain('>parallel</text>');
    expect(svg).toContain('>masked</text>');
  });

  it('the well-formedness check rejects broken markup', () => {
    expect(wellFormed('<svg><g></svg>')).toBe(false);
    expect(wellFormed('<svg><text>a < b</text></svg>')).toBe(false);
    expect(escapeXml('"a" & <b>')).toBe('&quot;a&quot; &amp; &lt;b&gt;');
  });
});

/**
 * Golden files: the exact markup of a line chart and a bar chart from fixed, hand-made inputs, so any
 * change to what a claim report draws shows up as a diff of an SVG a reviewer can open. After an
 * intended change, `npx vitest run scripts/claims/svg.test.ts -u` rewrites them; with CI set, a missing
 * or different file fails instead of being written.
 */
describe('SVG plots, golden', () => {
  it('a line chart with a band, a gap, a dashed line, a fixed colour and two reference lines', async () => {
    const x = [0, 10, 20, 30, 40, 50];
    const svg = lineChart({
      title: 'Return against updates <golden>',
      xLabel: 'update',
      yLabel: 'return',
      series: [
        { name: 'critic + GAE', x, y: [0.12, 0.31, 0.47, 0.58, 0.66, 0.71], lo: [0.08, 0.25, 0.4, 0.52, 0.6, 0.66], hi: [0.16, 0.37, 0.54, 0.64, 0.72, 0.76] },
        { name: 'no critic', x, y: [0.12, 0.22, NaN, 0.41, 0.45, 0.5], dashed: true },
        { name: 'scripted', x: [0, 50], y: [0.35, 0.35], color: '#777777' },
      ],
      refLines: [
        { y: 0.62, label: 'best of N' },
        { y: 0.9, label: 'ceiling', color: '#D55E00' },
      ],
    });
    await expect(svg).toMatchFileSnapshot('./__golden__/line-chart.svg');
  });

  it('a line chart with a fixed y range and negative values clamped into it', async () => {
    const svg = lineChart({
      title: 'Handoffs',
      xLabel: 'continuation update',
      yLabel: 'handoffs per episode',
      series: [{ name: 'seed 1', x: [1, 2, 3, 4], y: [-0.5, 0.25, 1.5, 0.75] }],
      yDomain: [0, 1],
      width: 300,
      height: 200,
    });
    await expect(svg).toMatchFileSnapshot('./__golden__/line-chart-clamped.svg');
  });

  it('a grouped bar chart with error bars, a missing bar, a negative mean and a reference line', async () => {
    const svg = barChart({
      title: 'Messages per agent-minute',
      yLabel: 'messages',
      series: ['trained', 'masked', 'scripted'],
      groups: [
        { label: 'parallel', values: { trained: { mean: 0.05, sd: 0.01 }, masked: { mean: 0 }, scripted: { mean: 0.03, sd: 0.005 } } },
        { label: 'coupled', values: { trained: { mean: 0.2, sd: 0.02 }, scripted: { mean: -0.04, sd: 0.01 } } },
        { label: 'chain', values: { trained: { mean: 0.12, sd: NaN }, masked: { mean: NaN }, scripted: { mean: 0.08 } } },
      ],
      refLines: [{ y: 0.1, label: 'target' }],
    });
    await expect(svg).toMatchFileSnapshot('./__golden__/bar-chart.svg');
  });
});
