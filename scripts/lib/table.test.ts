import { describe, expect, it } from 'vitest';
import { formatDuration } from './progress';
import { formatTable, toCsv } from './table';

describe('output helpers', () => {
  it('aligns a table', () => {
    expect(
      formatTable(
        ['org', 'ret'],
        [
          ['chain', '0.5'],
          ['scripted', '0.95'],
        ],
      ).split('\n'),
    ).toEqual(['org        ret', '--------  ----', 'chain      0.5', 'scripted  0.95']);
  });
  it('left-aligns the columns asked for', () => {
    expect(
      formatTable(
        ['step', 'config', 'seconds'],
        [
          ['1', 'long text', '2.5'],
          ['22', 'short', '10.0'],
        ],
        [0, 1],
      ).split('\n'),
    ).toEqual(['step  config     seconds', '----  ---------  -------', '1     long text      2.5', '22    short         10.0']);
  });
  it('quotes CSV cells with commas or quotes', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          [1, null],
        ],
      ),
    ).toBe('a,b\n"x,y","say ""hi"""\n1,\n');
  });
  it('formats durations', () => {
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3700)).toBe('1:01:40');
    expect(formatDuration(Infinity)).toBe('--:--');
  });
});
