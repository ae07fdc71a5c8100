import { describe, expect, it } from 'vitest';
import { camel, choiceFlag, collect, intFlag, intListFlag, kebab, numberFlag, parseFlags, pathFlag, readFlags, UsageError } from './cli';

const OPTIONS = {
  family: { type: 'string', default: 'coupled' },
  lr: { type: 'string' },
  seeds: { type: 'string' },
  out: { type: 'string' },
  critic: { type: 'boolean', default: false },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', default: false },
} as const;

describe('readFlags', () => {
  it('reads --key value, --key=value and bare flags over the defaults', () => {
    const { values, problems } = readFlags(['--lr=0.01', '--critic', '--seeds', '1,2', '--quiet'], OPTIONS);
    expect(problems).toEqual([]);
    expect({ ...values }).toEqual({ family: 'coupled', lr: '0.01', critic: true, seeds: '1,2', quiet: true, help: false });
  });
  it('takes a negative number as the value of a flag, not as a flag', () => {
    expect(readFlags(['--lr', '-5'], OPTIONS).values.lr).toBe('-5');
    expect(readFlags(['--lr', '-0.5', '--quiet'], OPTIONS).values).toMatchObject({ lr: '-0.5', quiet: true });
  });
  it('turns a boolean flag off with --no-name, and only a boolean one', () => {
    expect(readFlags(['--critic', '--no-critic'], OPTIONS).values.critic).toBe(false);
    expect(readFlags(['--no-critic', '--critic'], OPTIONS).values.critic).toBe(true);
    expect(readFlags(['--no-critic=1'], OPTIONS).problems.map((p) => p.message)).toEqual(['--no-critic takes no value']);
    expect(readFlags(['--no-lr'], OPTIONS).problems.map((p) => p.message)).toEqual(['unknown flag --no-lr']);
    expect(readFlags(['--no-such'], OPTIONS).problems.map((p) => p.message)).toEqual(['unknown flag --no-such']);
  });
  it('names an unknown flag once, with the word after it swallowed', () => {
    const { problems } = readFlags(['--agentz', '3', '--to-string=1', '-x', '--constructor', '--__proto__', 'y'], OPTIONS);
    expect(problems.map((p) => p.message)).toEqual([
      'unknown flag --agentz',
      'unknown flag --to-string',
      'unknown flag -x',
      'unknown flag --constructor',
      'unknown flag --__proto__',
    ]);
    expect(problems.every((p) => p.kind === 'unknown')).toBe(true);
  });
  it('refuses a flag without its value, a value given to a boolean, and a stray argument', () => {
    const { values, problems } = readFlags(['--out', '--quiet', 'extra', '--critic=false', '--seeds'], OPTIONS);
    expect(problems).toEqual([
      { kind: 'needs-value', flag: '--out', message: '--out needs a value' },
      { kind: 'positional', flag: 'extra', message: 'unexpected argument "extra" (flags start with --)' },
      { kind: 'no-value', flag: '--critic', message: '--critic takes no value' },
      { kind: 'needs-value', flag: '--seeds', message: '--seeds needs a value' },
    ]);
    expect(values.critic).toBe(false);
    expect(values.out).toBeUndefined();
  });
  it('keeps an empty value given with = (for the script to refuse with its reason)', () => {
    expect(readFlags(['--out='], OPTIONS)).toMatchObject({ values: { out: '' }, problems: [] });
  });
});

describe('parseFlags', () => {
  it('throws the first problem as a one-line UsageError', () => {
    expect(() => parseFlags(['--bogus', '--out'], OPTIONS)).toThrow(new UsageError('unknown flag --bogus'));
  });
  it('lets --help win over the problems', () => {
    expect(parseFlags(['--bogus', '--help'], OPTIONS).help).toBe(true);
  });
});

describe('the value checkers', () => {
  it('read integers, numbers and lists, naming the flag and the rule when they refuse', () => {
    expect(intFlag('agents', '8', 1, 16)).toBe(8);
    expect(() => intFlag('agents', '0x8', 1, 16)).toThrow(/^--agents: "0x8" is not an integer from 1 to 16$/);
    expect(() => intFlag('agents', '1e1', 1, 16)).toThrow(/^--agents: "1e1" is not an integer/);
    expect(() => intFlag('agents', '40', 1, 16)).toThrow(/^--agents: 40 is out of range: an integer from 1 to 16$/);
    expect(() => intFlag('agents', '', 1, 16)).toThrow(UsageError);
    expect(numberFlag('threshold', '0.5', { kind: 'float', min: 0, max: 1 })).toBe(0.5);
    expect(() => numberFlag('threshold', 'half', { kind: 'float', min: 0, max: 1 })).toThrow(/^--threshold: "half" is not a number from 0 to 1$/);
    expect(intListFlag('scaling', '1,2,4', 1, 16)).toEqual([1, 2, 4]);
    expect(() => intListFlag('scaling', '1,,2', 1, 16)).toThrow(/^--scaling: item 2 of "1,,2" is empty/);
  });
  it('read a choice and a path', () => {
    expect(choiceFlag('backend', 'cpu', ['cpu', 'wasm'])).toBe('cpu');
    expect(() => choiceFlag('backend', 'gpu', ['cpu', 'wasm'])).toThrow(/^--backend: "gpu" is not one of cpu, wasm$/);
    expect(pathFlag('json', 'a.json')).toBe('a.json');
    expect(() => pathFlag('json', ' ')).toThrow(/^--json needs a file name, not an empty text$/);
  });
  it('collect every refusal when a script reports them all at once', () => {
    const errors: string[] = [];
    expect(collect(errors, () => intFlag('agents', '4', 1, 16))).toBe(4);
    expect(collect(errors, () => intFlag('agents', '40', 1, 16))).toBeUndefined();
    expect(collect(errors, () => choiceFlag('backend', 'gpu', ['cpu']))).toBeUndefined();
    expect(errors).toEqual(['--agents: 40 is out of range: an integer from 1 to 16', '--backend: "gpu" is not one of cpu']);
    expect(() => collect(errors, () => JSON.parse('{'))).toThrow(SyntaxError);
  });
});

describe('kebab and camel', () => {
  it('convert between a config key and its flag', () => {
    expect(kebab('tmaxStart')).toBe('tmax-start');
    expect(camel('tmax-start')).toBe('tmaxStart');
    expect(camel(kebab('tasksPerUpdate'))).toBe('tasksPerUpdate');
  });
});
