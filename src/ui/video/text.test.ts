import { describe, expect, it } from 'vitest';
import { layoutRow, layoutRuns, swatchShape, truncate, type Measure, type Run } from './text';

/** Every character 10 px wide (bold 12 px). */
const measure: Measure = (t, bold) => t.length * (bold ? 12 : 10);
const text = (t: string, gap: 0 | 1 | 2 = 0, bold = false): Run => ({ kind: 'text', text: t, colour: '#000', bold, gap });
const swatch = (gap: 0 | 1 | 2 = 0): Run => ({ kind: 'swatch', colour: '#f00', shape: 'box', gap });
const lineText = (line: { text: string }[]) =>
  line
    .map((p) => p.text)
    .join(' ')
    .trim();

describe('layoutRuns', () => {
  it('keeps a short text on one line', () => {
    const lines = layoutRuns([text('update 9'), text('deadline 9 min', 2)], 1000, 10, measure);
    expect(lines).toHaveLength(1);
    expect(lineText(lines[0])).toBe('update 9 deadline 9 min');
  });

  it('breaks at spaces when a line is full', () => {
    const lines = layoutRuns([text('aaaa bbbb cccc dddd')], 100, 10, measure);
    expect(lines.map(lineText)).toEqual(['aaaa bbbb', 'cccc dddd']);
    for (const line of lines) expect(Math.max(...line.map((p) => p.x + p.width))).toBeLessThanOrEqual(100);
  });

  it('moves a swatch to the next line with the word after it', () => {
    const lines = layoutRuns([text('aaaaaaa'), swatch(2), text('bbb')], 100, 10, measure);
    expect(lines).toHaveLength(2);
    expect(lines[1][0].run.kind).toBe('swatch');
    expect(lines[1][1].text).toBe('bbb');
  });

  it('puts a word longer than a line on a line of its own', () => {
    const lines = layoutRuns([text('a'), text('bbbbbbbbbbbbbbb', 1), text('c', 1)], 100, 10, measure);
    expect(lines.map(lineText)).toEqual(['a', 'bbbbbbbbbbbbbbb', 'c']);
  });
});

describe('truncate and layoutRow', () => {
  it('cuts with an ellipsis only when needed', () => {
    expect(truncate('hello', 50, false, measure)).toBe('hello');
    expect(truncate('hello world', 60, false, measure)).toBe('hello…');
    expect(truncate('hello', 5, false, measure)).toBe('');
  });

  it('keeps a feed row on one line, cutting its last text', () => {
    const row = layoutRow([text('m05'), swatch(2), text('agent 1'), text('posted its interfaces (new)', 2)], 250, 10, measure);
    expect(row[row.length - 1].text.endsWith('…')).toBe(true);
    expect(Math.max(...row.map((p) => p.x + p.width))).toBeLessThanOrEqual(250);
    expect(row.map((p) => p.run.kind)).toEqual(['text', 'swatch', 'text', 'text']);
  });
});

describe('swatchShape', () => {
  it('tells squares, bars, dashed lines and outlines apart', () => {
    expect(swatchShape(12, 12, true, 'none')).toBe('box');
    expect(swatchShape(13, 3, true, 'none')).toBe('bar');
    expect(swatchShape(18, 3, false, 'solid')).toBe('bar');
    expect(swatchShape(18, 1, false, 'dashed')).toBe('dash');
    expect(swatchShape(12, 12, false, 'solid')).toBe('outline');
  });
});
