/** A point (x, y) of a series: x is the update's position, y the value drawn. */
export type Point = readonly [number, number];

/**
 * A series that grows by appending, kept for drawing as the lowest and highest point of each group
 * of `size` consecutive points (ties: the earlier point), so peaks and dips survive. While the groups
 * number more than `maxGroups`, neighbours are merged in pairs and `size` doubles: at most
 * `maxGroups` groups however long the series grows, each append O(1) (amortised), and the points
 * drawn stay about `2 * maxGroups`. The groups are the same as grouping the whole series at once
 * by `size`; the first and last points are always drawn, so the line spans the series. A NaN value
 * is kept (its group holds it only when it has no number) and left out of `min` and `max`; drawing
 * it is `seriesPath`'s to refuse.
 */
export class MinMaxSeries {
  /** Points per group: a power of two. */
  size = 1;
  /** Points appended. */
  count = 0;
  /** The lowest and highest value appended (Infinity and -Infinity while empty). */
  min = Infinity;
  max = -Infinity;
  first: Point | null = null;
  last: Point | null = null;
  private lo: Point[] = [];
  private hi: Point[] = [];

  constructor(readonly maxGroups: number) {
    if (!(maxGroups >= 1)) throw new Error(`a series needs at least one group, got ${maxGroups}`);
  }

  get groups(): number {
    return this.lo.length;
  }

  push(x: number, y: number): void {
    const p: Point = [x, y];
    const g = Math.floor(this.count / this.size);
    if (g === this.lo.length) {
      this.lo.push(p);
      this.hi.push(p);
    } else {
      // A NaN (a value a view could not read) never holds a group's low or high against a number.
      if (y < this.lo[g][1] || (Number.isNaN(this.lo[g][1]) && !Number.isNaN(y))) this.lo[g] = p;
      if (y > this.hi[g][1] || (Number.isNaN(this.hi[g][1]) && !Number.isNaN(y))) this.hi[g] = p;
    }
    this.count++;
    this.first ??= p;
    this.last = p;
    if (y < this.min) this.min = y;
    if (y > this.max) this.max = y;
    if (this.lo.length > this.maxGroups) this.halve();
  }

  /** The points group `g` draws: its low and high in order, once when they are the same point. */
  groupPoints(g: number): Point[] {
    const lo = this.lo[g];
    const hi = this.hi[g];
    if (lo === hi) return [lo];
    return lo[0] < hi[0] ? [lo, hi] : [hi, lo];
  }

  /**
   * The points of groups `from` to `to` (excluded), in order: after the first point of the series
   * when `from` is 0, else after the last point drawn for group `from - 1` (so consecutive ranges
   * join up), and with the series' last point when the range reaches the end.
   */
  points(from = 0, to = this.groups): Point[] {
    const out: Point[] = [];
    const add = (p: Point) => {
      if (!out.length || out[out.length - 1][0] !== p[0]) out.push(p);
    };
    if (from === 0) {
      if (this.first) add(this.first);
    } else add(this.groupPoints(from - 1).at(-1)!);
    for (let g = from; g < to; g++) for (const p of this.groupPoints(g)) add(p);
    if (to >= this.groups && this.last) add(this.last);
    return out;
  }

  /** Merges neighbouring groups in pairs: the size doubles. */
  private halve(): void {
    const lo: Point[] = [];
    const hi: Point[] = [];
    for (let g = 0; g < this.lo.length; g += 2) {
      const b = g + 1 < this.lo.length;
      const [l0, l1, h0, h1] = [this.lo[g], this.lo[g + 1], this.hi[g], this.hi[g + 1]];
      lo.push(b && (l1[1] < l0[1] || (Number.isNaN(l0[1]) && !Number.isNaN(l1[1]))) ? l1 : l0);
      hi.push(b && (h1[1] > h0[1] || (Number.isNaN(h0[1]) && !Number.isNaN(h1[1]))) ? h1 : h0);
    }
    this.lo = lo;
    this.hi = hi;
    this.size *= 2;
  }
}
