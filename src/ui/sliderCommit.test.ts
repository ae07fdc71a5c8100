import { describe, expect, it } from 'vitest';
import { SliderGesture } from './sliderCommit';

/** A gesture over a slider whose committed value is `start`, with a hand-driven clock. */
function setup(start: number) {
  let value = start;
  const commits: number[] = [];
  const shown: (number | null)[] = [];
  const pending = new Map<number, () => void>();
  let id = 0;
  const timers = {
    set: (fn: () => void) => {
      pending.set(++id, fn);
      return id;
    },
    clear: (t: unknown) => void pending.delete(t as number),
  };
  const g = new SliderGesture(
    {
      commit: (v) => {
        commits.push(v);
        value = v;
      },
      show: (d) => shown.push(d),
      committed: () => value,
    },
    700,
    timers,
  );
  const fire = () => {
    const fns = [...pending.values()];
    pending.clear();
    for (const f of fns) f();
  };
  return { g, commits, shown, fire, pending };
}

describe('a slider gesture', () => {
  it('reports a drag through many values once, at its end, with its last value', () => {
    const { g, commits, shown } = setup(80);
    g.pointerDown();
    for (let v = 79; v >= 30; v--) g.input(v, false);
    expect(commits).toEqual([]);
    expect(shown.at(-1)).toBe(30);
    g.change(false);
    expect(commits).toEqual([30]);
    expect(shown.at(-1)).toBeNull();
    // The pointer-up after the change event adds nothing.
    g.end();
    expect(commits).toEqual([30]);
  });

  it('reports a burst of arrow keys once, after the pause that ends it', () => {
    const { g, commits, fire, pending } = setup(24);
    for (const v of [25, 26, 27]) {
      g.input(v, true);
      g.change(true);
    }
    expect(commits).toEqual([]);
    expect(pending.size).toBe(1);
    fire();
    expect(commits).toEqual([27]);
  });

  it('reports a value set at once (no key, no drag) at once, and nothing for a gesture back to where it began', () => {
    const { g, commits } = setup(8);
    g.input(12, false);
    g.change(false);
    expect(commits).toEqual([12]);
    g.pointerDown();
    g.input(20, false);
    g.input(12, false);
    g.end();
    expect(commits).toEqual([12]);
  });

  it('ends a key burst at once when the slider loses the focus', () => {
    const { g, commits, pending } = setup(5);
    g.input(6, true);
    g.end();
    expect(commits).toEqual([6]);
    expect(pending.size).toBe(0);
  });
});
