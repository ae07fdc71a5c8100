import { describe, expect, it } from 'vitest';
import { camel, kebab, parseArgs } from './args';

describe('parseArgs', () => {
  it('reads --key value, --key=value and bare flags', () => {
    const p = parseArgs(['--family', 'coupled', '--lr=0.01', '--critic', '--seeds', '1,2', 'extra', '--quiet']);
    expect(p.flags.get('family')).toBe('coupled');
    expect(p.flags.get('lr')).toBe('0.01');
    expect(p.bare.has('critic')).toBe(true);
    expect(p.bare.has('quiet')).toBe(true);
    expect(p.flags.get('seeds')).toBe('1,2');
    expect(p.positional).toEqual(['extra']);
  });
  it('converts between kebab and camel case', () => {
    expect(kebab('tmaxStart')).toBe('tmax-start');
    expect(camel('tmax-start')).toBe('tmaxStart');
    expect(camel(kebab('tasksPerUpdate'))).toBe('tasksPerUpdate');
  });
});
