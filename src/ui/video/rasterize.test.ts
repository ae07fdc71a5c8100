import { describe, expect, it } from 'vitest';
import { bitrateFor, encoderConfig, frameTimestampUs } from './encode';
import { containRect, dashboardCells, fontSizeFor, gridCells, type Rect } from './rasterize';
import { EPISODE_VIEWS } from './views';

const overlap = (a: Rect, b: Rect) =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

describe('layout', () => {
  it('fits a chart into a box keeping its aspect, centred, at the top', () => {
    expect(containRect(2, { x: 0, y: 0, w: 100, h: 100 })).toEqual({ x: 0, y: 0, w: 100, h: 50 });
    expect(containRect(0.5, { x: 10, y: 10, w: 100, h: 100 })).toEqual({ x: 35, y: 10, w: 50, h: 100 });
    expect(containRect(2, { x: 0, y: 0, w: 100, h: 0 }).w).toBe(0);
  });

  it('tiles the dashboard cells of the episode views over the frame without overlap', () => {
    const area = { x: 0, y: 0, w: 1280, h: 720 };
    const cells = dashboardCells(EPISODE_VIEWS, area);
    expect(cells).toHaveLength(6);
    expect(cells.reduce((a, c) => a + c.w * c.h, 0)).toBeCloseTo(area.w * area.h, 0);
    for (let i = 0; i < cells.length; i++) for (let j = i + 1; j < cells.length; j++) expect(overlap(cells[i], cells[j])).toBeCloseTo(0, 6);
    expect(new Set(EPISODE_VIEWS.map((v) => v.id)).size).toBe(EPISODE_VIEWS.length);
  });

  it('falls back to a grid when views have no cells', () => {
    const cells = dashboardCells(
      EPISODE_VIEWS.map(({ cell: _cell, ...v }) => v),
      { x: 0, y: 0, w: 1200, h: 600 },
    );
    expect(cells).toEqual(gridCells(6, { x: 0, y: 0, w: 1200, h: 600 }));
    expect(gridCells(6, { x: 0, y: 0, w: 1200, h: 600 })[5]).toEqual({ x: 800, y: 300, w: 400, h: 300 });
    expect(gridCells(1, { x: 0, y: 0, w: 10, h: 10 })).toEqual([{ x: 0, y: 0, w: 10, h: 10 }]);
  });

  it('scales the font with the frame, larger for one view', () => {
    expect(fontSizeFor(720, false)).toBeCloseTo(720 / 46);
    expect(fontSizeFor(720, true)).toBe(20);
    expect(fontSizeFor(100, false)).toBe(10);
  });
});

describe('encoding settings', () => {
  it('stamps frames on the video clock in microseconds', () => {
    expect(frameTimestampUs(0, 30)).toBe(0);
    expect(frameTimestampUs(30, 30)).toBe(1_000_000);
    expect(frameTimestampUs(1, 30)).toBe(33_333);
  });

  it('sizes the bitrate by pixels per second within bounds', () => {
    expect(bitrateFor(1280, 720, 30)).toBe(2_764_800);
    expect(bitrateFor(160, 90, 30)).toBe(500_000);
    expect(bitrateFor(3840, 2160, 60)).toBe(12_000_000);
    expect(encoderConfig('vp9', 854, 480, 30)).toMatchObject({ codec: 'vp09.00.41.08', width: 854, height: 480, framerate: 30 });
    expect(encoderConfig('vp8', 854, 480, 30).codec).toBe('vp8');
  });
});
