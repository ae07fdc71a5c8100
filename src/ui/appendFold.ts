/**
 * A summary of a list that grows by appending (the run's metrics, one entry per update), kept up
 * to date with the new items only: `of` adds what was appended since the last call, so a view's
 * work per update does not grow with the run. A list that is not the last one with items appended
 * (a replay's, a new run's, one cut short), or a change in `deps`, starts the summary over.
 */
export class AppendFold<T, S> {
  private items: readonly T[] | null = null;
  private deps: readonly unknown[] = [];
  private state: S | null = null;

  /**
   * The summary of `items`: `start()` folded with `add(state, item, index, items)` over every item.
   * `start` and `add` may be new closures each call; they are used only for what is new.
   */
  of(items: readonly T[], deps: readonly unknown[], start: () => S, add: (state: S, item: T, index: number, items: readonly T[]) => void): S {
    let from = this.state === null || !sameDeps(deps, this.deps) ? null : grownFrom(items, this.items!);
    if (from === null) {
      this.state = start();
      from = 0;
    }
    for (let i = from; i < items.length; i++) add(this.state!, items[i], i, items);
    this.items = items;
    this.deps = deps;
    return this.state!;
  }
}

function sameDeps(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

/**
 * How many items of `next` were in `prev`, when `next` is `prev` with items appended (same first
 * and last item of `prev` at the same places); null when it is some other list.
 */
function grownFrom<T>(next: readonly T[], prev: readonly T[]): number | null {
  if (next === prev) return prev.length;
  const n = prev.length;
  if (next.length < n) return null;
  if (n === 0) return 0;
  return next[0] === prev[0] && next[n - 1] === prev[n - 1] ? n : null;
}
