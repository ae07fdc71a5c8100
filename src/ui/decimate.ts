/**
 * At most about `2 * buckets` of `points` (x ascending), for drawing a long series in a small chart:
 * the index range is cut into `buckets` equal groups and each keeps its lowest and highest point,
 * in order, so peaks and dips survive; the first and last points are always kept. A series short
 * enough is returned as it is. Drawing cost then stays bounded however long the run grows.
 */
export function decimate<P extends readonly [number, number]>(points: readonly P[], buckets: number): readonly P[] {
  const b = Math.max(1, Math.floor(buckets));
  if (points.length <= 2 * b + 2) return points;
  const out: P[] = [points[0]];
  const size = (points.length - 2) / b;
  for (let k = 0; k < b; k++) {
    const from = 1 + Math.floor(k * size);
    const to = 1 + Math.floor((k + 1) * size);
    if (to <= from) continue;
    let lo = from;
    let hi = from;
    for (let i = from + 1; i < to; i++) {
      if (points[i][1] < points[lo][1]) lo = i;
      if (points[i][1] > points[hi][1]) hi = i;
    }
    if (lo === hi) out.push(points[lo]);
    else if (lo < hi) out.push(points[lo], points[hi]);
    else out.push(points[hi], points[lo]);
  }
  out.push(points[points.length - 1]);
  return out;
}
