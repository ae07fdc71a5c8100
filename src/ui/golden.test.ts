import { describe, expect, it } from 'vitest';
import { goldenJson } from './golden';

describe('goldenJson', () => {
  it('rounds numbers and puts points and short lists on one line, nested values one a line', () => {
    const text = goldenJson({ nodes: [{ x: 1.23456, y: -0.004 }], lanes: [0, 1, -1], path: 'M0,0L1.5,2', bad: NaN, none: {} });
    expect(text).toBe(
      [
        '{',
        '  "nodes": [',
        '    {"x": 1.23, "y": 0}',
        '  ],',
        '  "lanes": [0, 1, -1],',
        '  "path": "M0,0L1.5,2",',
        '  "bad": null,',
        '  "none": {}',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('writes a list too long for one line one item a line', () => {
    const long = Array.from({ length: 40 }, (_, i) => i * 1000);
    expect(goldenJson(long).split('\n')).toHaveLength(43);
    expect(goldenJson(long.slice(0, 5))).toBe('[0, 1000, 2000, 3000, 4000]\n');
  });

  it('leaves strings as they are', () => {
    expect(goldenJson(['a,b', 'c, [d]'])).toBe('["a,b", "c, [d]"]\n');
  });

  it('rounds to the digits asked for', () => {
    expect(
      goldenJson(
        [
          [0, 0.125],
          [1, 2.71828],
        ],
        1,
      ),
    ).toBe('[\n  [0, 0.1],\n  [1, 2.7]\n]\n');
    expect(goldenJson(2.71828, 3)).toBe('2.718\n');
    expect(goldenJson(2.71828, 0)).toBe('3\n');
  });
});
