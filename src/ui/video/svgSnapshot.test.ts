import { describe, expect, it } from 'vitest';
import { INHERITED_PROPS, motionAt, parseClock, polylinePoints, styleText, SVG_STYLE_PROPS } from './svgSnapshot';

const values = (o: Partial<Record<(typeof SVG_STYLE_PROPS)[number], string>>) => SVG_STYLE_PROPS.map((p) => o[p] ?? '');

describe('the style-inlining list', () => {
  it('covers what paints SVG charts: paint, strokes, opacity, fonts, text placement, visibility', () => {
    for (const p of [
      'fill',
      'stroke',
      'stroke-width',
      'stroke-dasharray',
      'opacity',
      'font-family',
      'font-size',
      'font-weight',
      'text-anchor',
      'dominant-baseline',
      'visibility',
      'display',
      'stroke-opacity',
      'stroke-linecap',
      'fill-opacity',
    ]) {
      expect(SVG_STYLE_PROPS).toContain(p);
    }
    expect(new Set(SVG_STYLE_PROPS).size).toBe(SVG_STYLE_PROPS.length);
  });

  it('treats opacity and display as not inherited, the rest as inherited', () => {
    expect(INHERITED_PROPS.has('opacity')).toBe(false);
    expect(INHERITED_PROPS.has('display')).toBe(false);
    expect(INHERITED_PROPS.has('fill')).toBe(true);
    expect(INHERITED_PROPS.has('font-size')).toBe(true);
  });
});

describe('styleText', () => {
  const root = values({ fill: 'rgb(0, 0, 0)', stroke: 'none', 'font-size': '16px', opacity: '1', display: 'inline' });

  it('writes every inherited property on the root, and non-inherited ones only when not initial', () => {
    const s = styleText(root, null);
    expect(s).toContain('fill:rgb(0, 0, 0)');
    expect(s).toContain('font-size:16px');
    expect(s).not.toContain('opacity');
    expect(s).not.toContain('display');
  });

  it('writes on a child only what differs from its parent', () => {
    const child = values({ fill: 'rgb(0, 0, 0)', stroke: 'rgb(0, 114, 178)', 'font-size': '16px', opacity: '0.3', display: 'inline' });
    expect(styleText(child, root)).toBe('stroke:rgb(0, 114, 178);opacity:0.3');
  });

  it('writes display only to hide', () => {
    expect(styleText(values({ display: 'none' }), values({}))).toBe('display:none');
    expect(styleText(values({ display: 'block' }), values({}))).toBe('');
  });
});

describe('SMIL motion', () => {
  it('reads clock values', () => {
    expect(parseClock('1.6s')).toBeCloseTo(1.6);
    expect(parseClock('370ms')).toBeCloseTo(0.37);
    expect(parseClock('2')).toBe(2);
    expect(parseClock('0:01.5')).toBeCloseTo(1.5);
    expect(parseClock('indefinite')).toBeNull();
    expect(parseClock(null)).toBeNull();
  });

  it('reads straight paths and refuses curves', () => {
    expect(polylinePoints('M10,20 L30,40')).toEqual([
      [10, 20],
      [30, 40],
    ]);
    expect(polylinePoints('M-1.5,2e1 L3,4 L5,6')).toHaveLength(3);
    expect(polylinePoints('M0,0 C1,1 2,2 3,3')).toBeNull();
    expect(polylinePoints('m0,0 l1,1')).toBeNull();
  });

  it('places a repeating motion by its phase, as on a page open for a while', () => {
    const path: [number, number][] = [
      [0, 0],
      [100, 0],
    ];
    expect(motionAt(path, 2, 0, 0)).toEqual([0, 0]);
    expect(motionAt(path, 2, 0, 1)).toEqual([50, 0]);
    expect(motionAt(path, 2, 0, 2.5)).toEqual([25, 0]);
    // Before its begin time it is already running (the page's clock is long past it).
    expect(motionAt(path, 2, 0.5, 0)).toEqual([75, 0]);
  });

  it('moves at an even pace along a polyline', () => {
    const path: [number, number][] = [
      [0, 0],
      [30, 0],
      [30, 10],
    ];
    const [x, y] = motionAt(path, 4, 0, 3.5);
    expect(x).toBeCloseTo(30);
    expect(y).toBeCloseTo(5);
  });
});
