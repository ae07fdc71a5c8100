import { describe, expect, it } from 'vitest';
import { AppendFold } from './appendFold';

interface Sum {
  total: number;
  /** Items added, by index (to see what was folded again). */
  added: number[];
}

const start = (): Sum => ({ total: 0, added: [] });
const add = (s: Sum, item: { v: number }, i: number) => {
  s.total += item.v;
  s.added.push(i);
};
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ v: i + 1 }));

describe('AppendFold', () => {
  it('adds only the appended items of a list that grows by copies (as the store appends an update)', () => {
    const f = new AppendFold<{ v: number }, Sum>();
    let list = items(3);
    expect(f.of(list, [], start, add)).toEqual({ total: 6, added: [0, 1, 2] });
    for (let n = 3; n < 10; n++) {
      list = [...list, { v: n + 1 }];
      f.of(list, [], start, add);
    }
    const s = f.of(list, [], start, add);
    // The same as folding the whole list at once, each item added once.
    expect(s.total).toBe(list.reduce((a, b) => a + b.v, 0));
    expect(s.added).toEqual(list.map((_, i) => i));
  });

  it('starts over for another list, a shorter one, or changed deps', () => {
    const f = new AppendFold<{ v: number }, Sum>();
    const list = items(5);
    f.of(list, ['a'], start, add);
    // Another run's list of the same length or longer: not an extension of the first.
    expect(f.of(items(6), ['a'], start, add).added).toEqual([0, 1, 2, 3, 4, 5]);
    // Cut short (a resumed run drops the updates after its checkpoint).
    const cut = items(6).slice(0, 2);
    expect(f.of(cut, ['a'], start, add)).toEqual({ total: 3, added: [0, 1] });
    // The same list with other deps (e.g. the curve's view changed).
    expect(f.of(cut, ['b'], start, add).added).toEqual([0, 1]);
    expect(f.of(cut, ['b'], start, add).added).toEqual([0, 1]);
  });

  it('goes on from an empty list', () => {
    const f = new AppendFold<{ v: number }, Sum>();
    f.of([], [], start, add);
    expect(f.of(items(2), [], start, add)).toEqual({ total: 3, added: [0, 1] });
  });
});
