/**
 * A still picture of a live <svg> as a self-contained SVG document: the computed styles that paint it
 * are written onto a clone (the page's stylesheets and CSS variables do not reach an SVG loaded as an
 * image), SMIL motion is frozen at a given time, and the clone gets an explicit pixel size so it is
 * drawn as vectors at the video's resolution rather than scaled as a bitmap.
 */

/** The computed style properties copied from the live elements onto the clone. */
export const SVG_STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'display',
] as const;

export type SvgStyleProp = (typeof SVG_STYLE_PROPS)[number];

/** Properties children inherit: written on a child only where it differs from its parent. */
export const INHERITED_PROPS: ReadonlySet<SvgStyleProp> = new Set(SVG_STYLE_PROPS.filter((p) => p !== 'opacity' && p !== 'display'));

/** Non-inherited properties are written only when they differ from these initial values. */
const INITIAL: Partial<Record<SvgStyleProp, string>> = { opacity: '1', display: 'inline' };

/**
 * The style attribute for an element with computed `values` (aligned with `SVG_STYLE_PROPS`) under a
 * parent with computed `parent` (null for the root, which gets every inherited property).
 */
export function styleText(values: readonly string[], parent: readonly string[] | null): string {
  const out: string[] = [];
  SVG_STYLE_PROPS.forEach((prop, k) => {
    const v = values[k];
    if (!v) return;
    if (INHERITED_PROPS.has(prop)) {
      if (parent === null || parent[k] !== v) out.push(`${prop}:${v}`);
    } else if (prop === 'display') {
      if (v === 'none') out.push('display:none');
    } else if (v !== INITIAL[prop]) {
      out.push(`${prop}:${v}`);
    }
  });
  return out.join(';');
}

/** A SMIL clock value in seconds ("1.6s", "370ms", "2", "0:01.5"); null for anything else. */
export function parseClock(value: string | null): number | null {
  if (!value) return null;
  const v = value.trim();
  let m = /^(-?[\d.]+)(ms|s|min|h)?$/.exec(v);
  if (m) {
    const n = Number(m[1]);
    if (!Number.isFinite(n)) return null;
    const unit = m[2] ?? 's';
    return unit === 'ms' ? n / 1000 : unit === 'min' ? n * 60 : unit === 'h' ? n * 3600 : n;
  }
  m = /^(?:(\d+):)?(\d+):([\d.]+)$/.exec(v);
  if (m) return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  return null;
}

/** Points of a path made only of absolute M/L commands; null for any other path. */
export function polylinePoints(d: string): [number, number][] | null {
  if (/[^MLml\d\s,.eE+-]/.test(d) || /[ml]/.test(d)) return null;
  const nums = (d.match(/-?\d*\.?\d+(?:[eE][-+]?\d+)?/g) ?? []).map(Number);
  if (nums.length < 2 || nums.length % 2) return null;
  const pts: [number, number][] = [];
  for (let i = 0; i < nums.length; i += 2) pts.push([nums[i], nums[i + 1]]);
  return pts;
}

/**
 * Where a repeating `animateMotion` along `points` (paced: even speed) puts its element at `timeS`,
 * as if the animation had been running for a long time (as it has on a page open for a while).
 */
export function motionAt(points: readonly [number, number][], durS: number, beginS: number, timeS: number): [number, number] {
  if (points.length === 1 || durS <= 0) return points[0];
  const phase = (((timeS - beginS) % durS) + durS) % durS;
  const lengths = points.slice(1).map((p, i) => Math.hypot(p[0] - points[i][0], p[1] - points[i][1]));
  const total = lengths.reduce((a, b) => a + b, 0);
  let along = (phase / durS) * total;
  for (let i = 0; i < lengths.length; i++) {
    if (along <= lengths[i] || i === lengths.length - 1) {
      const f = lengths[i] > 0 ? Math.min(1, along / lengths[i]) : 0;
      return [points[i][0] + f * (points[i + 1][0] - points[i][0]), points[i][1] + f * (points[i + 1][1] - points[i][1])];
    }
    along -= lengths[i];
  }
  return points[points.length - 1];
}

/** Elements that paint nothing: dropped from the clone. */
const DROP = new Set(['title', 'desc', 'metadata']);

/**
 * Serialises live SVGs with their computed styles inlined. Styles are looked up once per kind of
 * element (its parent's kind, tag, class and presentation attributes), so a frame that only adds
 * boxes to a chart costs one `getComputedStyle` per new kind, not per element. Make one per export:
 * the cache assumes the page's stylesheets and colour scheme stay as they are.
 */
export class SvgSnapshotter {
  private readonly kinds = new Map<string, { id: number; values: string[]; style: string }>();
  private readonly serializer = new XMLSerializer();
  /** `getComputedStyle` calls made (for measurements). */
  lookups = 0;

  /** The SVG document for `svg` drawn at `width` x `height` pixels, SMIL motion frozen at `timeS`. */
  snapshot(svg: SVGSVGElement, width: number, height: number, timeS: number): string {
    const clone = svg.cloneNode(true) as SVGSVGElement;
    this.inline(svg, clone, null);
    if (!clone.hasAttribute('viewBox')) {
      const box = svg.getBoundingClientRect();
      clone.setAttribute('viewBox', `0 0 ${box.width || width} ${box.height || height}`);
    }
    clone.setAttribute('width', String(width));
    clone.setAttribute('height', String(height));
    clone.removeAttribute('class');
    for (const anim of Array.from(clone.querySelectorAll('animateMotion'))) freezeMotion(anim, timeS);
    return this.serializer.serializeToString(clone);
  }

  private inline(live: Element, clone: Element, parent: { id: number; values: string[] } | null): void {
    const kind = this.kindOf(live, parent);
    // Through the CSSOM, not setAttribute: the site's Content-Security-Policy refuses inline style attributes.
    if (kind.style) (clone as SVGElement).style.cssText = kind.style;
    else clone.removeAttribute('style');
    const liveKids = live.children;
    const cloneKids = Array.from(clone.children);
    for (let k = 0; k < cloneKids.length; k++) {
      const c = cloneKids[k];
      if (DROP.has(c.localName)) {
        c.remove();
        continue;
      }
      this.inline(liveKids[k], c, kind);
    }
  }

  private kindOf(el: Element, parent: { id: number; values: string[] } | null): { id: number; values: string[]; style: string } {
    let key = `${parent ? parent.id : -1}|${el.localName}|${el.getAttribute('class') ?? ''}|${el.getAttribute('style') ?? ''}`;
    for (const prop of SVG_STYLE_PROPS) {
      const a = el.getAttribute(prop);
      if (a !== null) key += `|${prop}=${a}`;
    }
    let kind = this.kinds.get(key);
    if (!kind) {
      this.lookups++;
      const cs = getComputedStyle(el);
      const values = SVG_STYLE_PROPS.map((p) => cs.getPropertyValue(p));
      kind = { id: this.kinds.size, values, style: styleText(values, parent ? parent.values : null) };
      this.kinds.set(key, kind);
    }
    return kind;
  }
}

/** Replaces an `animateMotion` by a fixed translate of its element at `timeS` (or drops it when it cannot be read). */
function freezeMotion(anim: Element, timeS: number): void {
  const target = anim.parentElement;
  const points = polylinePoints(anim.getAttribute('path') ?? '');
  const dur = parseClock(anim.getAttribute('dur'));
  const begin = parseClock(anim.getAttribute('begin')) ?? 0;
  anim.remove();
  if (!target || !points || dur === null) return;
  const [x, y] = motionAt(points, dur, begin, timeS);
  const rest = target.getAttribute('transform');
  target.setAttribute('transform', `translate(${x.toFixed(2)} ${y.toFixed(2)})${rest ? ` ${rest}` : ''}`);
}

/** Loads an SVG document as an image, ready to draw. */
export async function svgImage(svgText: string): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    return img;
  } finally {
    URL.revokeObjectURL(url);
  }
}
