import { SvgSnapshotter, svgImage } from './svgSnapshot';
import { inlineRuns, isTransparent, layoutRow, layoutRuns, swatchSize, type Measure, type Placed, type SwatchShape } from './text';

/** A part of a view, top to bottom: a chart (SVG, drawn as vectors), a block of text, or a feed of rows. */
export type FramePart =
  | { kind: 'svg'; selector: string }
  /** Text drawn wrapped in lines (summaries, readouts, legends). */
  | { kind: 'text'; selector: string }
  /** One line per matching element, the newest (last) rows that fit, each cut to one line. */
  | { kind: 'feed'; selector: string };

/** A view of the page that a video can show: where it is, its title and what to draw of it. */
export interface VideoView {
  id: string;
  /** Title drawn above the view (and offered in the export dialog). */
  label: string;
  /** CSS selector of the view's panel on the page. */
  selector: string;
  /** What to draw, inside the panel, in order. */
  parts: readonly FramePart[];
  /** Where the view sits in the dashboard, as fractions of the area under the header; without one the dashboard is a grid. */
  cell?: Rect;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Colours and font of the page, read from it so the video matches (dark scheme included). */
export interface Theme {
  background: string;
  panel: string;
  line: string;
  text: string;
  muted: string;
  fontFamily: string;
}

/** The largest rectangle of aspect `aspect` (width / height) inside `box`, centred horizontally, at its top. */
export function containRect(aspect: number, box: Rect): Rect {
  if (!(aspect > 0) || box.w <= 0 || box.h <= 0) return { x: box.x, y: box.y, w: 0, h: 0 };
  const w = Math.min(box.w, box.h * aspect);
  const h = w / aspect;
  return { x: box.x + (box.w - w) / 2, y: box.y, w, h };
}

/** Cells of a grid of `n` views filling `area`, about as many columns as the area is wide. */
export function gridCells(n: number, area: Rect): Rect[] {
  const cols = Math.max(1, Math.min(n, Math.round(Math.sqrt((n * area.w) / Math.max(1, area.h)))));
  const rows = Math.max(1, Math.ceil(n / cols));
  return Array.from({ length: n }, (_, i) => ({
    x: area.x + ((i % cols) * area.w) / cols,
    y: area.y + (Math.floor(i / cols) * area.h) / rows,
    w: area.w / cols,
    h: area.h / rows,
  }));
}

/** The views' rectangles in `area`: their own cells (fractions of the area) when every view has one, else a grid. */
export function dashboardCells(views: readonly VideoView[], area: Rect): Rect[] {
  if (views.length > 1 && views.every((v) => v.cell)) {
    return views.map((v) => {
      const c = v.cell as Rect;
      return { x: area.x + c.x * area.w, y: area.y + c.y * area.h, w: c.w * area.w, h: c.h * area.h };
    });
  }
  return gridCells(views.length, area);
}

/** Text parts and feed rows relative to the base font (titles are a little larger). */
const TEXT_SCALE = 0.85;

/** Base font size in pixels for a frame `height` pixels high: larger for a single view. */
export function fontSizeFor(height: number, single: boolean): number {
  return Math.max(10, Math.min(30, height / (single ? 36 : 46)));
}

/** Reads the page's theme (its CSS variables and fonts). */
export function readTheme(doc: Document = document): Theme {
  const cs = getComputedStyle(doc.documentElement);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  const bg = isTransparent(cs.backgroundColor) ? v('--bg', '#f8fafc') : cs.backgroundColor;
  return {
    background: bg,
    panel: v('--panel', '#ffffff'),
    line: v('--line', '#d1d5db'),
    text: v('--fg', cs.color || '#1f2937'),
    muted: v('--muted', '#4b5563'),
    fontFamily: cs.fontFamily || 'sans-serif',
  };
}

/** What a frame's header says. */
export interface FrameCaption {
  /** Left: e.g. "Swarm Playground · rollout of update 12". */
  title: string;
  /** Right: e.g. "minute 5 of 24". */
  caption?: string;
}

/** Milliseconds spent on each stage of the frames drawn so far. */
export interface RasterTimings {
  frames: number;
  /** Views laid out again because they changed (the others were reused). */
  planned: number;
  svgMs: number;
  decodeMs: number;
  drawMs: number;
}

type Ctx = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/**
 * Draws views of the live page into a canvas, one call per frame: a header, then either one view
 * filling the frame or the dashboard of all of them, each as a panel with its title, its charts
 * (SVG snapshots drawn as vectors) and its text. A MutationObserver tells which views changed since
 * the last frame: the others keep their laid-out text and decoded snapshots (an animated SVG is
 * snapshot again at the new time). Call `dispose` when done.
 */
export class Rasterizer {
  private readonly ctx: Ctx;
  private readonly snap = new SvgSnapshotter();
  private readonly images = new Map<string, { text: string; img: HTMLImageElement }>();
  /** Each view's panel element and plan as of the last frame. */
  private readonly plans = new Map<string, { root: Element | null; plan: PanelPlan }>();
  private readonly observer: MutationObserver;
  /** Nodes that changed since the last frame. */
  private changed: Node[] = [];
  private readonly theme: Theme;
  private readonly fontPx: number;
  /** The video time of the frame being drawn (SVG animations are frozen there). */
  private timeS = 0;
  readonly timings: RasterTimings = { frames: 0, planned: 0, svgMs: 0, decodeMs: 0, drawMs: 0 };

  constructor(
    canvas: HTMLCanvasElement | OffscreenCanvas,
    private readonly views: readonly VideoView[],
    private readonly doc: Document = document,
  ) {
    const ctx = canvas.getContext('2d', { alpha: false }) as Ctx | null;
    if (!ctx) throw new Error('no 2D canvas context');
    this.ctx = ctx;
    this.theme = readTheme(doc);
    this.fontPx = fontSizeFor(canvas.height, views.length === 1);
    this.observer = new MutationObserver((records) => {
      for (const r of records) this.changed.push(r.target);
    });
    this.observer.observe(doc.body, { subtree: true, childList: true, attributes: true, characterData: true });
  }

  /** Stops watching the page. */
  dispose(): void {
    this.observer.disconnect();
  }

  /** `getComputedStyle` lookups the SVG style cache made so far. */
  get styleLookups(): number {
    return this.snap.lookups;
  }

  /** Draws the page as it is now; `timeS` is the frame's time in the video (freezes SVG animations). */
  async draw(timeS: number, caption: FrameCaption): Promise<void> {
    const t0 = performance.now();
    this.timeS = timeS;
    const { ctx, theme, fontPx } = this;
    const W = ctx.canvas.width;
    const H = ctx.canvas.height;
    const pad = Math.round(fontPx * 0.8);
    // Snapshots first (the slow, asynchronous part), then everything is drawn in one go.
    const headerH = Math.round(fontPx * 2.2);
    const area: Rect = { x: pad, y: headerH, w: W - 2 * pad, h: H - headerH - pad };
    const cells = this.views.length === 1 ? [area] : dashboardCells(this.views, area);
    const changes = [...this.changed, ...this.observer.takeRecords().map((r) => r.target)];
    this.changed = [];
    const plans = this.views.map((view, i) => {
      const root = this.doc.querySelector(view.selector);
      const last = this.plans.get(view.id);
      if (last && last.root === root && !changes.some((n) => root?.contains(n))) {
        for (const svg of last.plan.svgs) if (svg.animated) svg.text = this.snap.snapshot(svg.el, svg.rect.w, svg.rect.h, timeS);
        return last.plan;
      }
      this.timings.planned++;
      const plan = this.plan(view, root, inset(cells[i], pad / 2));
      this.plans.set(view.id, { root, plan });
      return plan;
    });
    const t1 = performance.now();
    const images = await Promise.all(plans.map((plan) => Promise.all(plan.svgs.map((s) => this.image(s.key, s.text)))));
    const t2 = performance.now();

    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, W, H);
    ctx.textBaseline = 'middle';
    ctx.fillStyle = theme.text;
    ctx.font = this.font(fontPx * 1.15, true);
    ctx.textAlign = 'left';
    ctx.fillText(caption.title, pad, headerH / 2);
    if (caption.caption) {
      ctx.textAlign = 'right';
      ctx.font = this.font(fontPx * 1.15, false);
      ctx.fillText(caption.caption, W - pad, headerH / 2);
      ctx.textAlign = 'left';
    }
    plans.forEach((plan, i) => this.paint(plan, images[i]));
    this.timings.frames++;
    this.timings.svgMs += t1 - t0;
    this.timings.decodeMs += t2 - t1;
    this.timings.drawMs += performance.now() - t2;
  }

  private font(px: number, bold: boolean): string {
    return `${bold ? '600 ' : ''}${px.toFixed(1)}px ${this.theme.fontFamily}`;
  }

  private measure(px: number): Measure {
    return (text, bold) => {
      this.ctx.font = this.font(px, bold);
      return this.ctx.measureText(text).width;
    };
  }

  /** Lays a panel out: where its title, text, feed rows and SVG snapshots go. */
  private plan(view: VideoView, root: Element | null, cell: Rect): PanelPlan {
    const { fontPx } = this;
    const inner = inset(cell, fontPx * 0.6);
    const titleH = fontPx * 1.6;
    // Text and feed rows a little smaller than titles, so the charts keep most of the room.
    const px = fontPx * TEXT_SCALE;
    const lineH = px * 1.35;
    const plan: PanelPlan = { view, cell, title: { x: inner.x, y: inner.y + titleH / 2 }, items: [], svgs: [] };
    let y = inner.y + titleH;
    if (!root) {
      plan.items.push({
        kind: 'lines',
        lines: [[{ run: { kind: 'text', text: 'not shown yet', colour: this.theme.muted, bold: false, gap: 0 }, text: 'not shown yet', x: 0, width: 0 }]],
        x: inner.x,
        y,
        lineH,
        px,
      });
      return plan;
    }
    const bottom = inner.y + inner.h;
    // Heights of the text parts, so the SVG gets what is left.
    const laid = view.parts.map((part) => {
      if (part.kind === 'text') {
        const el = root.querySelector(part.selector);
        const lines = el ? layoutRuns(inlineRuns(el), inner.w, px, this.measure(px)) : [];
        return { part, lines, h: lines.length * lineH };
      }
      return { part, lines: [] as Placed[][], h: 0 };
    });
    // Height the parts after index k need: their text, and a few rows for a feed.
    const after = (k: number) => laid.slice(k + 1).reduce((a, l) => a + l.h + (l.part.kind === 'feed' ? lineH * 4 : 0), 0);
    laid.forEach((l, k) => {
      const part = l.part;
      if (part.kind === 'text') {
        plan.items.push({ kind: 'lines', lines: l.lines, x: inner.x, y, lineH, px });
        y += l.h;
      } else if (part.kind === 'svg') {
        const svg = root.querySelector(part.selector);
        if (!(svg instanceof SVGSVGElement)) return;
        const vb = svg.viewBox.baseVal;
        const box = svg.getBoundingClientRect();
        const aspect = vb && vb.width > 0 && vb.height > 0 ? vb.width / vb.height : box.width / Math.max(1, box.height);
        const r = containRect(aspect, { x: inner.x, y, w: inner.w, h: Math.max(0, bottom - y - after(k)) });
        const w = Math.round(r.w);
        const h = Math.round(r.h);
        if (w < 1 || h < 1) return;
        const animated = svg.querySelector('animate, animateMotion, animateTransform, set') !== null;
        plan.svgs.push({
          key: `${view.id}:${part.selector}`,
          el: svg,
          animated,
          text: this.snap.snapshot(svg, w, h, this.timeS),
          rect: { x: r.x, y: r.y, w, h },
        });
        y += h + fontPx * 0.3;
      } else {
        const rows = Array.from(root.querySelectorAll(part.selector));
        const rowH = px * 1.45;
        const fit = Math.max(0, Math.floor((bottom - y - after(k)) / rowH));
        const shown = rows.slice(Math.max(0, rows.length - fit));
        const measure = this.measure(px);
        plan.items.push({
          kind: 'rows',
          rows: shown.map((row) => ({ placed: layoutRow(inlineRuns(row), inner.w - px * 0.6, px, measure), background: rowBackground(row) })),
          x: inner.x,
          y,
          w: inner.w,
          rowH,
          px,
        });
        y += shown.length * rowH;
      }
    });
    return plan;
  }

  private async image(key: string, text: string): Promise<HTMLImageElement> {
    const cached = this.images.get(key);
    if (cached && cached.text === text) return cached.img;
    const img = await svgImage(text);
    this.images.set(key, { text, img });
    return img;
  }

  private paint(plan: PanelPlan, images: HTMLImageElement[]): void {
    const { ctx, theme, fontPx } = this;
    const { cell } = plan;
    ctx.fillStyle = theme.panel;
    ctx.strokeStyle = theme.line;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.roundRect(cell.x + 0.5, cell.y + 0.5, cell.w - 1, cell.h - 1, fontPx * 0.4);
    ctx.fill();
    ctx.stroke();
    ctx.save();
    ctx.beginPath();
    ctx.rect(cell.x, cell.y, cell.w, cell.h);
    ctx.clip();
    ctx.fillStyle = theme.text;
    ctx.font = this.font(fontPx * 1.05, true);
    ctx.textBaseline = 'middle';
    ctx.fillText(plan.view.label, plan.title.x, plan.title.y);
    plan.svgs.forEach((s, i) => ctx.drawImage(images[i], s.rect.x, s.rect.y, s.rect.w, s.rect.h));
    for (const item of plan.items) {
      if (item.kind === 'lines') {
        item.lines.forEach((line, k) => this.paintLine(line, item.x, item.y + (k + 0.5) * item.lineH, item.px));
      } else {
        item.rows.forEach((row, k) => {
          const y = item.y + k * item.rowH;
          if (row.background) {
            ctx.fillStyle = row.background;
            ctx.fillRect(item.x, y, item.w, item.rowH);
          }
          this.paintLine(row.placed, item.x + item.px * 0.3, y + item.rowH / 2, item.px);
        });
      }
    }
    ctx.restore();
  }

  private paintLine(line: readonly Placed[], x: number, y: number, px: number): void {
    const { ctx } = this;
    for (const p of line) {
      if (p.run.kind === 'swatch') {
        drawSwatch(ctx, p.run.shape, p.run.colour, x + p.x, y, swatchSize(px));
        continue;
      }
      ctx.fillStyle = p.run.colour;
      ctx.font = this.font(px, p.run.bold);
      ctx.fillText(p.text, x + p.x, y);
    }
  }
}

interface PanelPlan {
  view: VideoView;
  cell: Rect;
  title: { x: number; y: number };
  items: (
    | { kind: 'lines'; lines: Placed[][]; x: number; y: number; lineH: number; px: number }
    | { kind: 'rows'; rows: { placed: Placed[]; background: string | null }[]; x: number; y: number; w: number; rowH: number; px: number }
  )[];
  svgs: { key: string; el: SVGSVGElement; animated: boolean; text: string; rect: Rect }[];
}

/** A colour key of side `s` whose left edge is at `x`, centred on `y`. */
function drawSwatch(ctx: Ctx, shape: SwatchShape, colour: string, x: number, y: number, s: number): void {
  ctx.fillStyle = colour;
  ctx.strokeStyle = colour;
  const t = Math.max(2, Math.round(s * 0.25));
  if (shape === 'box') ctx.fillRect(x, y - s / 2, s, s);
  else if (shape === 'bar') ctx.fillRect(x, y - t / 2, s, t);
  else if (shape === 'dash') for (let k = 0; k < 3; k++) ctx.fillRect(x + (k * s) / 3, y - 0.75, s / 5, 1.5);
  else {
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y - s / 2 + 0.5, s - 1, s - 1);
  }
}

function inset(r: Rect, by: number): Rect {
  return { x: r.x + by, y: r.y + by, w: Math.max(0, r.w - 2 * by), h: Math.max(0, r.h - 2 * by) };
}

function rowBackground(row: Element): string | null {
  const bg = getComputedStyle(row).backgroundColor;
  return isTransparent(bg) ? null : bg;
}
