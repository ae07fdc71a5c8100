import { describe, expect, it } from 'vitest';
import { decodeRunFile, encodeRunFile } from '../core/runFile';
import { fakeRun } from '../core/testing';
import { openRun, type OpenMessage } from './openRun';
import { RunAssembler } from './runParts';

function posted(bytes: Uint8Array): { m: OpenMessage; transfer: ArrayBuffer[] }[] {
  const out: { m: OpenMessage; transfer: ArrayBuffer[] }[] = [];
  openRun(bytes, (m, transfer = []) => out.push({ m, transfer }));
  return out;
}

describe('openRun', () => {
  it('posts progress, the checked run in pieces (weights moved), then done', () => {
    const bytes = encodeRunFile(fakeRun(60));
    const messages = posted(bytes);
    const kinds = messages.map(({ m }) => m.kind);
    expect(kinds[0]).toBe('progress');
    expect(kinds.at(-1)).toBe('done');
    expect(messages.at(-1)?.m).toEqual({ kind: 'done', ok: true });
    expect(kinds.lastIndexOf('progress')).toBeLessThan(kinds.indexOf('part'));
    const a = new RunAssembler();
    for (const { m } of messages) if (m.kind === 'part') a.add(m.part);
    expect({ ok: true, run: a.run() }).toEqual(decodeRunFile(bytes));
    const moved = messages.filter(({ m }) => m.kind === 'part' && m.part.kind === 'checkpoint');
    expect(moved.length).toBe(fakeRun(60).checkpoints.items.length);
    for (const { transfer } of moved) expect(transfer.length).toBeGreaterThan(0);
  });

  it('a file that is not a valid run posts its reason and no piece of it', () => {
    const messages = posted(new TextEncoder().encode('{"format":"swarm-run","version":9}'));
    expect(messages.some(({ m }) => m.kind === 'part')).toBe(false);
    expect(messages.at(-1)?.m).toEqual({ kind: 'done', ok: false, error: expect.stringContaining('Unsupported run file version 9') });
  });
});
