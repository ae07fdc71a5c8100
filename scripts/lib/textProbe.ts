/**
 * What a reader at the back of a room sees of the page: the rendered size of every visible piece of
 * text and the share of the stage the lesson's focused view takes. Shared by `npm run text-size`
 * (scripts/commands/checks/text-size.ts) and the e2e tests (e2e/presenter.spec.ts).
 *
 * The probe runs in the page. It is plain JavaScript text rather than a function: tsx's transform
 * would wrap named inner functions in a `__name` helper that does not exist in the page.
 */

/** One piece of text as drawn. */
export interface TextItem {
  /** Where it is: a view on the stage by its test id (curves, dm-graph, ...), or lesson, header, drawer, replay-bar, other. */
  region: string;
  /** Its rendered size in CSS px: the computed font-size times the scale of every transform (an SVG's viewBox included). */
  px: number;
  text: string;
  /** True when part of it is cut off: outside its view, a box that hides overflow, or the window. */
  clipped: boolean;
  /** True when it is scrolled out of a box that scrolls (reachable, so not cut off). */
  scrolled: boolean;
}

export interface TextReport {
  items: TextItem[];
  /** The lesson step's focused view (data-focus), if any. */
  focus: string | null;
  /** Where the focused view is: on the stage, in the drawer, or below the stage. */
  focusPlace: 'stage' | 'drawer' | 'below' | null;
  /** On the stage: the focused view's area over the stage's; elsewhere its area in the window over the window's. */
  focusShare: number | null;
  /** How far the lesson's column scrolls (CSS px of it below its fold; 0: it reads without scrolling), null without the lesson. */
  lessonScroll: number | null;
  /** Rows the header's buttons stand on (null without the header). */
  headerRows: number | null;
}

/** The stage's views (their test ids), the ones whose text must be readable from the back. */
export const STAGE_VIEWS = ['curves', 'countdown', 'swimlanes', 'dm-graph', 'message-board'];

/** Evaluate in the page (`page.evaluate(TEXT_PROBE)`): a TextReport. */
export const TEXT_PROBE = `(() => {
  const stage = document.querySelector('[data-testid="stage"]');
  const root = document.querySelector('[data-testid="app-root"]');
  const vw = window.innerWidth, vh = window.innerHeight;
  const det = (m) => Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
  const regionOf = (el) => {
    // A view on the stage: one of the five, or a panel a lesson step lifted onto it.
    const v = stage ? [...stage.children].find((c) => c.contains(el)) : undefined;
    if (v) return [v.getAttribute('data-testid') || 'stage', v];
    const pairs = [['lesson', '.lesson'], ['drawer', '.drawer.open'], ['header', 'header.top, .stage-bar'], ['replay-bar', '.replay-bar']];
    for (const [name, sel] of pairs) {
      const c = el.closest(sel);
      if (c) return [name, c];
    }
    return ['other', null];
  };
  const cssScale = (el) => {
    let s = 1;
    for (let e = el; e; e = e.parentElement) {
      const t = getComputedStyle(e).transform;
      if (t && t !== 'none') s *= det(new DOMMatrix(t));
    }
    return s;
  };
  const inside = (r, b) => r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
  const items = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = (n.textContent || '').replace(/\\s+/g, ' ').trim();
    if (!text) continue;
    const el = n.parentElement;
    if (!el || el.closest('title, desc, script, style, option, template, noscript')) continue;
    if (el.checkVisibility && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rect = range.getBoundingClientRect();
    // Screen-reader-only text is a 1 px box; text outside the window is not on the screen.
    if (rect.width < 2 || rect.height < 2) continue;
    if (rect.right <= 0 || rect.bottom <= 0 || rect.left >= vw || rect.top >= vh) continue;
    const [region, container] = regionOf(el);
    // Under the open drawer: not seen.
    if (region !== 'drawer') {
      const hit = document.elementFromPoint(Math.min(vw - 1, Math.max(0, (rect.left + rect.right) / 2)), Math.min(vh - 1, Math.max(0, (rect.top + rect.bottom) / 2)));
      if (hit && hit.closest('.drawer.open')) continue;
    }
    const fs = parseFloat(getComputedStyle(el).fontSize);
    let px;
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      px = fs * (m ? det(m) : 1);
    } else px = fs * cssScale(el);
    // Cut off: by a box that hides what overflows it (its view, an SVG, an ellipsis), or by the
    // window. A box that scrolls (a feed, the lesson's column) hides nothing for good: text scrolled
    // out of it is counted as scrolled, not as cut off.
    let clipped = false, scrolled = false;
    for (let a = el; a && a !== document.body && !clipped && !scrolled; a = a.parentElement) {
      const cs = getComputedStyle(a);
      const scrolls = /auto|scroll/.test(cs.overflowX + cs.overflowY);
      if (a instanceof SVGSVGElement || cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
        if (!inside(rect, a.getBoundingClientRect())) {
          if (scrolls) scrolled = true;
          else clipped = true;
        }
      }
      if (cs.textOverflow === 'ellipsis' && a.scrollWidth > a.clientWidth + 1) clipped = true;
      if (a === container) break;
    }
    if (!scrolled && !clipped && container && !inside(rect, container.getBoundingClientRect())) clipped = true;
    if (!scrolled && !inside(rect, { left: 0, top: 0, right: vw, bottom: vh })) clipped = true;
    items.push({ region, px: Math.round(px * 100) / 100, text: text.slice(0, 60), clipped, scrolled });
  }
  const focus = root ? root.getAttribute('data-focus') : null;
  let focusPlace = null, focusShare = null;
  const f = focus ? document.querySelector('[data-testid="' + focus + '"]') : null;
  if (f) {
    const r = f.getBoundingClientRect();
    if (stage && stage.contains(f)) {
      const s = stage.getBoundingClientRect();
      focusPlace = 'stage';
      focusShare = (r.width * r.height) / (s.width * s.height);
    } else {
      focusPlace = f.closest('.drawer') ? 'drawer' : 'below';
      const w = Math.max(0, Math.min(vw, r.right) - Math.max(0, r.left));
      const h = Math.max(0, Math.min(vh, r.bottom) - Math.max(0, r.top));
      focusShare = (w * h) / (vw * vh);
    }
  }
  const lesson = document.querySelector('[data-testid="lesson"]');
  const lessonScroll = lesson ? Math.max(0, lesson.scrollHeight - lesson.clientHeight) : null;
  const header = document.querySelector('header.top');
  let headerRows = null;
  if (header) {
    const middles = [...header.querySelectorAll('button, .badge')]
      .map((b) => b.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => (r.top + r.bottom) / 2)
      .sort((a, b) => a - b);
    headerRows = middles.filter((m, i) => i === 0 || m - middles[i - 1] > 6).length;
  }
  return { items, focus, focusPlace, focusShare, lessonScroll, headerRows };
})()`;

/** The smallest text of `items` (null when there is none). */
export function smallest(items: readonly TextItem[]): TextItem | null {
  return items.reduce<TextItem | null>((a, b) => (a === null || b.px < a.px ? b : a), null);
}

/** Regions that are not views on the stage. */
const NOT_VIEWS = ['lesson', 'drawer', 'header', 'replay-bar', 'other'];

/** The text drawn in the stage's views (the five, and a panel a lesson step lifted onto the stage). */
export function viewText(report: TextReport): TextItem[] {
  return report.items.filter((i) => !NOT_VIEWS.includes(i.region));
}
