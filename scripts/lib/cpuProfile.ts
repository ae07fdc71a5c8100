/**
 * Reading a V8 CPU profile (what Chrome DevTools Protocol's `Profiler.stop` returns and DevTools
 * opens as a .cpuprofile): the self time of each function, for the UI benchmarks' `--profile`.
 */

/** The parts of a `Profiler.Profile` this reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  startTime: number;
  endTime: number;
  /** The node sampled at each tick. */
  samples?: number[];
  /** Microseconds since the previous sample (the first: since startTime). */
  timeDeltas?: number[];
}

/** One function's share of a profile. */
export interface SelfTime {
  /** The function's name, or V8's pseudo-entries: "(garbage collector)", "(idle)", "(program)"; "(anonymous)" for a nameless one. */
  name: string;
  /** Where it is: the script's file name with the 1-based line and column of the function's start; empty for V8's own entries. */
  where: string;
  /** Milliseconds of samples in the function itself (not in what it called). */
  selfMs: number;
}

function fileName(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1).replace(/\?.*$/, '');
}

/** A profile node's function: its name (V8's pseudo-entries by theirs) and where it is (empty for V8's own entries). */
export function frameOf(f: { functionName?: string; url?: string; lineNumber?: number; columnNumber?: number }): { name: string; where: string } {
  const url = f.url ?? '';
  return {
    name: f.functionName || (url ? '(anonymous)' : '(root)'),
    where: url ? `${fileName(url)}:${(f.lineNumber ?? 0) + 1}:${(f.columnNumber ?? 0) + 1}` : '',
  };
}

/**
 * The self time of every function of `p`, most first. A sample's time is the delta to the next
 * sample (DevTools' attribution); the last sample gets the delta to the profile's end. Nodes of the
 * same function (called from different places) are added together.
 */
export function selfTimes(p: CpuProfile): SelfTime[] {
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  const byNode = new Map<number, number>();
  let t = p.startTime + (deltas[0] ?? 0);
  for (let i = 0; i < samples.length; i++) {
    const next = i + 1 < samples.length ? t + (deltas[i + 1] ?? 0) : Math.max(t, p.endTime);
    byNode.set(samples[i], (byNode.get(samples[i]) ?? 0) + (next - t));
    t = next;
  }
  const byFunction = new Map<string, SelfTime>();
  for (const n of p.nodes) {
    const us = byNode.get(n.id);
    if (!us) continue;
    const { name, where } = frameOf(n.callFrame);
    const key = `${name}@${where}`;
    const e = byFunction.get(key) ?? { name, where, selfMs: 0 };
    e.selfMs += us / 1000;
    byFunction.set(key, e);
  }
  return [...byFunction.values()].sort((a, b) => b.selfMs - a.selfMs);
}

/**
 * Whether the main thread was busy in `e`: everything but "(idle)" and "(root)". "(program)" is the
 * renderer's own native work outside JavaScript (style, layout, paint among it) and counts.
 */
export function isBusy(e: SelfTime): boolean {
  return e.name !== '(idle)' && e.name !== '(root)';
}
