/**
 * Plots of the claim reports as standalone SVG text, built in Node without a DOM: d3 scales and path
 * generators do the math, the markup is written here. Two kinds: line charts (with optional bands
 * and reference lines) and grouped bar charts (with optional error bars).
 */
import { area, line, scaleBand, scaleLinear } from 'd3';

/** Okabe-Ito colours (colour-blind safe), as in the app. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];

/** One line of a line chart; `lo`/`hi` draw a shaded band. Non-finite y values leave gaps. */
export interface Series {
  name: string;
  x: readonly number[];
  y: readonly number[];
  lo?: readonly number[];
  hi?: readonly number[];
  dashed?: boolean;
  color?: string;
}

/** A horizontal reference line with a label. */
export interface RefLine {
  y: number;
  label: string;
  color?: string;
}

export interface LineChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly Series[];
  refLines?: readonly RefLine[];
  /** Fixed y range; default from the data (including 0). */
  yDomain?: [number, number];
  /** Width of the plot area plus axes (the legend adds its own room). */
  width?: number;
  height?: number;
}

/** One group of bars (e.g. one task family), a bar per series. */
export interface BarGroup {
  label: string;
  /** Mean and spread per series name; a missing or non-finite value draws no bar. */
  values: Record<string, { mean: number; sd?: number }>;
}

export interface BarChartSpec {
  title: string;
  yLabel: string;
  /** Series names in legend order. */
  series: readonly string[];
  groups: readonly BarGroup[];
  refLines?: readonly RefLine[];
  yDomain?: [number, number];
  /** Width of the plot area plus axes (the legend adds its own room). */
  width?: number;
  height?: number;
}

/** Escapes text for XML content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"';
const num = (v: number) => (Math.round(v * 100) / 100).toString();

function frame(width: number, height: number, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT} font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14" font-weight="600">${escapeXml(title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function yAxis(y: (v: number) => number, ticks: number[], box: Box, label: string, fmt: (v: number) => string): string[] {
  const out = [`<g class="y-axis">`];
  for (const t of ticks) {
    const py = num(y(t));
    out.push(`<line x1="${box.left}" x2="${box.right}" y1="${py}" y2="${py}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${box.left - 6}" y="${py}" dy="0.32em" text-anchor="end" fill="#333">${escapeXml(fmt(t))}</text>`);
  }
  out.push(`<line x1="${box.left}" x2="${box.left}" y1="${box.top}" y2="${box.bottom}" stroke="#333"/>`);
  const cy = (box.top + box.bottom) / 2;
  out.push(`<text transform="translate(${box.left - 46},${num(cy)}) rotate(-90)" text-anchor="middle" fill="#333">${escapeXml(label)}</text>`);
  out.push('</g>');
  return out;
}

function legend(items: { name: string; color: string; dashed?: boolean }[], x: number, y: number, swatch: 'line' | 'box' = 'line'): string[] {
  const out = [`<g class="legend">`];
  items.forEach((it, i) => {
    const ly = y + i * 18;
    if (swatch === 'box') out.push(`<rect x="${x + 5}" y="${ly - 6}" width="12" height="12" fill="${it.color}"/>`);
    else out.push(`<line x1="${x}" x2="${x + 22}" y1="${ly}" y2="${ly}" stroke="${it.color}" stroke-width="3"${it.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    out.push(`<text x="${x + 28}" y="${ly}" dy="0.32em" fill="#222">${escapeXml(it.name)}</text>`);
  });
  out.push('</g>');
  return out;
}

function refLineMarks(refs: readonly RefLine[], y: (v: number) => number, box: Box): string[] {
  return refs.flatMap((r) => {
    const py = num(y(r.y));
    const color = r.color ?? '#555';
    return [
      `<line class="ref" x1="${box.left}" x2="${box.right}" y1="${py}" y2="${py}" stroke="${color}" stroke-dasharray="2 3"/>`,
      `<text x="${box.left + 4}" y="${py}" dy="-0.4em" text-anchor="start" fill="${color}" font-size="11">${escapeXml(r.label)}</text>`,
    ];
  });
}

/** Room for the legend: its longest name at about 7 px a character, plus the swatch. */
function legendWidth(names: readonly string[]): number {
  return Math.max(150, 48 + 7 * Math.max(0, ...names.map((n) => n.length)));
}

/** The range of `ys` with 8% headroom above, so labels of lines at the top stay inside the plot. */
function dataDomain(ys: readonly number[]): [number, number] {
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  return hi > lo ? [lo, hi + 0.08 * (hi - lo)] : [lo, lo + 1];
}

function fmtTick(step: number): (v: number) => string {
  const digits = step >= 1 ? 0 : Math.min(4, Math.ceil(-Math.log10(step)));
  return (v: number) => v.toFixed(digits);
}

/** A line chart with axes, tick labels, axis labels, a legend, optional bands and reference lines. */
export function lineChart(spec: LineChartSpec): string {
  const legendW = legendWidth(spec.series.map((x) => x.name));
  const width = (spec.width ?? 540) + legendW;
  const height = spec.height ?? 400;
  const box: Box = { left: 64, top: 36, right: width - legendW, bottom: height - 48 };
  const xs = spec.series.flatMap((s) => s.x.filter(Number.isFinite));
  const ys = [...spec.series.flatMap((s) => [...s.y, ...(s.hi ?? [])].filter(Number.isFinite)), ...(spec.refLines ?? []).map((r) => r.y), 0];
  const xMin = xs.length ? Math.min(...xs) : 0;
  const xMax = xs.length ? Math.max(...xs) : 1;
  const x = scaleLinear()
    .domain([xMin, xMax > xMin ? xMax : xMin + 1])
    .range([box.left, box.right]);
  const y = scaleLinear()
    .domain(spec.yDomain ?? dataDomain(ys))
    .range([box.bottom, box.top])
    .nice()
    .clamp(true);
  const body: string[] = [];
  const yTicks = y.ticks(6);
  body.push(...yAxis(y, yTicks, box, spec.yLabel, fmtTick(yTicks.length > 1 ? yTicks[1] - yTicks[0] : 1)));
  const xTicks = x.ticks(8);
  const xFmt = fmtTick(xTicks.length > 1 ? xTicks[1] - xTicks[0] : 1);
  body.push(`<g class="x-axis">`, `<line x1="${box.left}" x2="${box.right}" y1="${box.bottom}" y2="${box.bottom}" stroke="#333"/>`);
  for (const t of xTicks) {
    body.push(`<line x1="${num(x(t))}" x2="${num(x(t))}" y1="${box.bottom}" y2="${box.bottom + 5}" stroke="#333"/>`);
    body.push(`<text x="${num(x(t))}" y="${box.bottom + 18}" text-anchor="middle" fill="#333">${escapeXml(xFmt(t))}</text>`);
  }
  body.push(`<text x="${num((box.left + box.right) / 2)}" y="${height - 10}" text-anchor="middle" fill="#333">${escapeXml(spec.xLabel)}</text>`, '</g>');
  body.push(...refLineMarks(spec.refLines ?? [], y, box));
  const items: { name: string; color: string; dashed?: boolean }[] = [];
  spec.series.forEach((s, i) => {
    const color = s.color ?? PALETTE[i % PALETTE.length];
    const idx = s.x.map((_, j) => j);
    if (s.lo && s.hi) {
      const lo = s.lo;
      const hi = s.hi;
      const band = area<number>()
        .defined((j) => Number.isFinite(s.x[j]) && Number.isFinite(lo[j]) && Number.isFinite(hi[j]))
        .x((j) => x(s.x[j]))
        .y0((j) => y(lo[j]))
        .y1((j) => y(hi[j]))(idx);
      if (band) body.push(`<path class="band" d="${band}" fill="${color}" fill-opacity="0.15" stroke="none"/>`);
    }
    const path = line<number>()
      .defined((j) => Number.isFinite(s.x[j]) && Number.isFinite(s.y[j]))
      .x((j) => x(s.x[j]))
      .y((j) => y(s.y[j]))(idx);
    if (path)
      body.push(
        `<path class="series" data-name="${escapeXml(s.name)}" d="${path}" fill="none" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
      );
    items.push({ name: s.name, color, dashed: s.dashed });
  });
  body.push(...legend(items, box.right + 16, box.top + 8));
  return frame(width, height, spec.title, body);
}

/** A grouped bar chart with error bars (± sd), axes, a legend and optional reference lines. */
export function barChart(spec: BarChartSpec): string {
  const legendW = legendWidth(spec.series);
  const width = (spec.width ?? 540) + legendW;
  const height = spec.height ?? 400;
  const box: Box = { left: 64, top: 36, right: width - legendW, bottom: height - 48 };
  const vals = spec.groups.flatMap((g) => Object.values(g.values).flatMap((v) => [v.mean, v.mean + (v.sd ?? 0), v.mean - (v.sd ?? 0)])).filter(Number.isFinite);
  const ys = [...vals, ...(spec.refLines ?? []).map((r) => r.y), 0];
  const y = scaleLinear()
    .domain(spec.yDomain ?? dataDomain(ys))
    .range([box.bottom, box.top])
    .nice();
  const gx = scaleBand<string>()
    .domain(spec.groups.map((g) => g.label))
    .range([box.left, box.right])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const bx = scaleBand<string>().domain(spec.series).range([0, gx.bandwidth()]).padding(0.08);
  const body: string[] = [];
  const yTicks = y.ticks(6);
  body.push(...yAxis(y, yTicks, box, spec.yLabel, fmtTick(yTicks.length > 1 ? yTicks[1] - yTicks[0] : 1)));
  const y0 = y(Math.max(y.domain()[0], Math.min(0, y.domain()[1])));
  body.push(`<g class="x-axis">`, `<line x1="${box.left}" x2="${box.right}" y1="${num(y0)}" y2="${num(y0)}" stroke="#333"/>`);
  for (const g of spec.groups)
    body.push(`<text x="${num((gx(g.label) ?? 0) + gx.bandwidth() / 2)}" y="${box.bottom + 18}" text-anchor="middle" fill="#333">${escapeXml(g.label)}</text>`);
  body.push('</g>');
  spec.series.forEach((name, i) => {
    const color = PALETTE[i % PALETTE.length];
    for (const g of spec.groups) {
      const v = g.values[name];
      if (!v || !Number.isFinite(v.mean)) continue;
      const left = (gx(g.label) ?? 0) + (bx(name) ?? 0);
      const top = Math.min(y(v.mean), y0);
      const h = Math.abs(y(v.mean) - y0);
      body.push(
        `<rect class="bar" data-name="${escapeXml(name)}" x="${num(left)}" y="${num(top)}" width="${num(bx.bandwidth())}" height="${num(h)}" fill="${color}"/>`,
      );
      if (v.sd && Number.isFinite(v.sd) && v.sd > 0) {
        const cx = num(left + bx.bandwidth() / 2);
        const hi = num(y(v.mean + v.sd));
        const lo = num(y(v.mean - v.sd));
        body.push(
          `<path class="err" d="M${cx},${lo}V${hi}M${num(left + bx.bandwidth() * 0.3)},${hi}H${num(left + bx.bandwidth() * 0.7)}M${num(left + bx.bandwidth() * 0.3)},${lo}H${num(left + bx.bandwidth() * 0.7)}" stroke="#222" fill="none"/>`,
        );
      }
    }
  });
  body.push(...refLineMarks(spec.refLines ?? [], y, box));
  body.push(
    ...legend(
      spec.series.map((name, i) => ({ name, color: PALETTE[i % PALETTE.length] })),
      box.right + 16,
      box.top + 8,
      'box',
    ),
  );
  return frame(width, height, spec.title, body);
}
