import { describe, expect, it } from 'vitest';
import { readNumber, readNumberList } from './readNumber';

const int = { kind: 'int', min: 1, max: 16 } as const;
const real = { kind: 'float', min: 0, max: 1 } as const;
const value = (text: string, rule: Parameters<typeof readNumber>[1]) => {
  const r = readNumber(text, rule);
  return r.ok ? r.value : r.message;
};

describe('readNumber', () => {
  it('reads plain decimals, with white space around', () => {
    expect(value('8', int)).toBe(8);
    expect(value(' 16 ', int)).toBe(16);
    expect(value('+3', int)).toBe(3);
    expect(value('0.25', real)).toBe(0.25);
    expect(value('.5', real)).toBe(0.5);
    expect(value('1e-3', real)).toBe(0.001);
    expect(value('-0', { kind: 'int', min: 0, max: 1 })).toBe(0);
  });

  it('refuses hex, binary, an exponent or a fraction where an integer is meant, and empty text', () => {
    expect(value('0x8', int)).toBe('"0x8" is not an integer from 1 to 16');
    expect(value('0x10', int)).toBe('"0x10" is not an integer from 1 to 16');
    expect(value('0b11', int)).toContain('is not an integer');
    expect(value('1e1', int)).toBe('"1e1" is not an integer from 1 to 16');
    expect(value('2.5', int)).toBe('"2.5" is not an integer from 1 to 16');
    expect(value('', int)).toBe('"" is not an integer from 1 to 16');
    expect(value('Infinity', real)).toBe('"Infinity" is not a number from 0 to 1');
    expect(value('NaN', real)).toContain('is not a number');
    expect(value('1e12', { kind: 'int', min: 1, max: 1e6 })).toContain('is not an integer');
    expect(value('99999999999999999999', { kind: 'int', min: 1, max: 1e6 })).toContain('is not an integer');
  });

  it('says out of range for a well-formed number beyond the bounds', () => {
    const r = readNumber('17', int);
    expect(r).toEqual({ ok: false, reason: 'range', message: '17 is out of range: an integer from 1 to 16' });
    expect(readNumber('1000000000000', { kind: 'int', min: 1, max: 1e6 })).toMatchObject({ reason: 'range' });
  });
});

describe('readNumberList', () => {
  const seeds = { kind: 'int', min: 0, max: 2147483647 } as const;
  it('reads a comma-separated list', () => {
    expect(readNumberList('1, 2,3', seeds)).toEqual({ ok: true, values: [1, 2, 3] });
  });

  it('refuses an empty item instead of reading it as 0', () => {
    expect(readNumberList('1,,2', seeds)).toEqual({
      ok: false,
      message: 'item 2 of "1,,2" is empty: give a comma-separated list, each an integer from 0 to 2147483647',
    });
    expect(readNumberList('1,2,', seeds).ok).toBe(false);
    expect(readNumberList('', seeds).ok).toBe(false);
    expect(readNumberList('1,0x2', seeds)).toEqual({ ok: false, message: '"0x2" is not an integer from 0 to 2147483647' });
  });

  it('refuses more items than the limit', () => {
    expect(readNumberList('1,2,3', seeds, 2).ok).toBe(false);
  });
});
