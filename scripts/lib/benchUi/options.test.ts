import { describe, expect, it } from 'vitest';
import { LINK_VERSION } from '../../../src/rl/config';
import { parseOptions } from './options';
import { currentFormat } from './page';

describe('bench:ui options', () => {
  it("opens today's link format by default, so --lesson's step numbers are the ones this build shows", () => {
    const o = parseOptions(['--lesson', '7']);
    if (o === 'help') throw new Error('help');
    expect(new URLSearchParams(o.hash).get('v')).toBe(String(LINK_VERSION));
    // The lesson's page is opened with the hash as given (a link with a version keeps it).
    expect(new URLSearchParams(currentFormat(o.hash)).get('v')).toBe(String(LINK_VERSION));
    expect(o.lesson).toEqual([7]);
  });

  it('keeps a hash the user gives, version and all', () => {
    const o = parseOptions(['--hash', 'v=2&seed=4']);
    if (o === 'help') throw new Error('help');
    expect(o.hash).toBe('v=2&seed=4');
  });
});
