/**
 * HTML parts of the views (headings, summaries, readouts, legends, the message feed) drawn as canvas
 * text: the page's words and colours, laid out in lines. The layout functions are pure (they take a
 * text measure), the run extraction reads the live DOM.
 */

/** A piece of inline content: text in one colour and weight, or a colour swatch. */
export type Run = { kind: 'text'; text: string; colour: string; bold: boolean; gap: Gap } | { kind: 'swatch'; colour: string; shape: SwatchShape; gap: Gap };

/** How a colour key is drawn: a filled square, a line (solid or dashed), or an empty square. */
export type SwatchShape = 'box' | 'bar' | 'dash' | 'outline';

/** The shape of a colour key `width` x `height` pixels, filled or drawn by its top border. */
export function swatchShape(width: number, height: number, filled: boolean, borderStyle: string): SwatchShape {
  if (filled) return height < width / 2 ? 'bar' : 'box';
  if (height <= 4) return borderStyle === 'dashed' || borderStyle === 'dotted' ? 'dash' : 'bar';
  return 'outline';
}

/** Space before a run: none, a word space, or the wide gap between items of a row. */
export type Gap = 0 | 1 | 2;

/** Measures text width in pixels at the current font, bold or not. */
export type Measure = (text: string, bold: boolean) => number;

/** A run placed on a line. */
export interface Placed {
  run: Run;
  /** The run's text on this line (a part of it when the run wraps). */
  text: string;
  x: number;
  width: number;
}

/** Pixel width of a gap at this font size. */
export function gapWidth(gap: Gap, fontPx: number): number {
  return gap === 0 ? 0 : gap === 1 ? fontPx * 0.3 : fontPx * 0.9;
}

/** Side of a colour swatch at this font size. */
export function swatchSize(fontPx: number): number {
  return Math.round(fontPx * 0.75);
}

/**
 * Lays runs out in lines at most `maxWidth` wide, breaking text at spaces (a word longer than a line
 * gets a line of its own and may overflow). A swatch stays on the line of the word after it.
 */
export function layoutRuns(runs: readonly Run[], maxWidth: number, fontPx: number, measure: Measure): Placed[][] {
  // Atoms: swatches and words, each with the space before it; a swatch and the next word form one group.
  type Atom = { run: Run; text: string; width: number; gap: number };
  const groups: Atom[][] = [];
  let glue = false;
  const space = measure(' ', false);
  for (const run of runs) {
    const gap = gapWidth(run.gap, fontPx);
    if (run.kind === 'swatch') {
      groups.push([{ run, text: '', width: swatchSize(fontPx) + fontPx * 0.3, gap }]);
      glue = true;
      continue;
    }
    run.text.split(' ').forEach((word, w) => {
      const atom = { run, text: word, width: measure(word, run.bold), gap: w === 0 ? gap : space };
      if (glue) groups[groups.length - 1].push(atom);
      else groups.push([atom]);
      glue = false;
    });
  }
  const lines: Placed[][] = [];
  let line: Placed[] = [];
  let x = 0;
  for (const group of groups) {
    const width = group.reduce((a, t, k) => a + t.width + (k ? t.gap : 0), 0);
    if (line.length && x + group[0].gap + width > maxWidth) {
      lines.push(line);
      line = [];
      x = 0;
    }
    group.forEach((t) => {
      if (line.length) x += t.gap;
      line.push({ run: t.run, text: t.text, x, width: t.width });
      x += t.width;
    });
  }
  if (line.length) lines.push(line);
  return lines;
}

/** `text` cut to fit `maxWidth`, with an ellipsis when cut. */
export function truncate(text: string, maxWidth: number, bold: boolean, measure: Measure): string {
  if (measure(text, bold) <= maxWidth) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${text.slice(0, mid)}…`, bold) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 ? `${text.slice(0, lo).trimEnd()}…` : '';
}

/** Runs of one line that must not wrap (a feed row): placed left to right, the last text cut to fit. */
export function layoutRow(runs: readonly Run[], maxWidth: number, fontPx: number, measure: Measure): Placed[] {
  const out: Placed[] = [];
  let x = 0;
  for (const run of runs) {
    const gapPx = out.length ? gapWidth(run.gap, fontPx) : 0;
    if (run.kind === 'swatch') {
      const width = swatchSize(fontPx) + fontPx * 0.3;
      if (x + gapPx + width > maxWidth) break;
      out.push({ run, text: '', x: x + gapPx, width });
      x += gapPx + width;
      continue;
    }
    const room = maxWidth - x - gapPx;
    const text = truncate(run.text, room, run.bold, measure);
    if (!text) break;
    const width = measure(text, run.bold);
    out.push({ run, text, x: x + gapPx, width });
    x += gapPx + width;
    if (text !== run.text) break;
  }
  return out;
}

const TRANSPARENT = /^(transparent|rgba\(\d+,\s*\d+,\s*\d+,\s*0\))$/;

/** Whether a computed colour paints nothing. */
export function isTransparent(colour: string): boolean {
  return !colour || TRANSPARENT.test(colour.trim());
}

/** Elements whose content is not part of a view's picture: controls and popovers. */
const SKIP = new Set(['BUTTON', 'SELECT', 'INPUT', 'PROGRESS', 'SCRIPT', 'STYLE', 'TEMPLATE', 'svg']);

/**
 * The inline content of a live element as runs: its text with each piece's colour and weight, colour
 * swatches (empty elements with a background, and `::before` colour keys), and gaps where the page
 * separates items (flex and grid items, block boxes). Hidden elements and controls are left out.
 */
export function inlineRuns(root: Element): Run[] {
  const runs: Run[] = [];
  let pending: Gap = 0;
  const bump = (g: Gap) => {
    if (g > pending) pending = g;
  };
  const take = (): Gap => {
    const g = runs.length ? pending : 0;
    pending = 0;
    return g;
  };
  const visit = (el: Element, parentDisplay: string) => {
    if (SKIP.has(el.tagName) || (el as HTMLElement).hidden) return;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') return;
    const item = parentDisplay.includes('flex') || parentDisplay.includes('grid');
    const block = cs.display === 'block' || cs.display === 'list-item' || cs.display.includes('flex') || cs.display.includes('grid');
    if (item) bump(2);
    else if (block) bump(1);
    const before = getComputedStyle(el, '::before');
    if (before.content && before.content !== 'none' && !isTransparent(before.backgroundColor)) {
      runs.push({
        kind: 'swatch',
        colour: before.backgroundColor,
        shape: swatchShape(parseFloat(before.width), parseFloat(before.height), true, 'none'),
        gap: take(),
      });
    }
    const hasText = (el.textContent ?? '').trim().length > 0;
    if (!hasText && el.children.length === 0) {
      const box = el.getBoundingClientRect();
      if (!isTransparent(cs.backgroundColor))
        runs.push({ kind: 'swatch', colour: cs.backgroundColor, shape: swatchShape(box.width, box.height, true, 'none'), gap: take() });
      else if (cs.borderTopStyle !== 'none' && parseFloat(cs.borderTopWidth) > 0 && !isTransparent(cs.borderTopColor)) {
        runs.push({ kind: 'swatch', colour: cs.borderTopColor, shape: swatchShape(box.width, box.height, false, cs.borderTopStyle), gap: take() });
      }
      return;
    }
    const bold = Number(cs.fontWeight) >= 600;
    for (const node of Array.from(el.childNodes)) {
      if (node.nodeType === Node.TEXT_NODE) {
        const raw = node.textContent ?? '';
        if (/^\s/.test(raw)) bump(1);
        const text = raw.replace(/\s+/g, ' ').trim();
        if (text) runs.push({ kind: 'text', text, colour: cs.color, bold, gap: take() });
        if (/\s$/.test(raw) && text) bump(1);
      } else if (node.nodeType === Node.ELEMENT_NODE) {
        visit(node as Element, cs.display);
      }
    }
    if (block || item) bump(item ? 2 : 1);
  };
  visit(root, '');
  return runs;
}
