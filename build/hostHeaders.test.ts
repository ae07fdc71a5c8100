import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hostHeaders } from './hostHeaders.ts';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

describe('the headers a host sends', () => {
  it('are the same in public/_headers, for every file', () => {
    const lines = read('public/_headers')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'));
    expect(lines[0]).toBe('/*');
    const headers = Object.fromEntries(lines.slice(1).map((l) => l.trim().split(/:\s*/, 2) as [string, string]));
    expect(headers).toEqual(hostHeaders);
  });

  it("are the same in docs/HOSTING.md's nginx lines", () => {
    const nginx = [...read('docs/HOSTING.md').matchAll(/^add_header (\S+) "([^"]*)" always;$/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(nginx)).toEqual(hostHeaders);
  });

  it('let embed mode be framed, and keep the isolation the threads need', () => {
    expect(hostHeaders['Content-Security-Policy']).toBe('frame-ancestors *');
    expect(hostHeaders['Cross-Origin-Embedder-Policy']).toBe('require-corp');
    expect(hostHeaders['X-Content-Type-Options']).toBe('nosniff');
    expect(['same-origin', 'strict-origin', 'strict-origin-when-cross-origin', 'no-referrer']).toContain(hostHeaders['Referrer-Policy']);
    expect(Object.keys(hostHeaders)).not.toContain('X-Frame-Options');
  });
});
