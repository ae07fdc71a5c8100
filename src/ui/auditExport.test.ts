import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../sim/events';
import { auditFile, auditFileName, auditSummary, episodeAudit } from './auditExport';

const e = (t: number, agent: number, kind: SimEvent['kind'], target: number, extra: Partial<SimEvent> = {}): SimEvent => ({
  t,
  agent,
  kind,
  module: -1,
  target,
  useful: false,
  ...extra,
});

const EVENTS: SimEvent[] = [
  e(0, 0, 'dm', 1, { carried: 1, useful: true }),
  e(0, 1, 'work', -1),
  e(1, 2, 'attempt', 1, { carried: 0 }),
  e(1, 1, 'side', -1, { carried: 2 }),
  e(2, 2, 'side', -1, { carried: 0, caught: true }),
  e(2, 0, 'post', -1, { carried: 1 }),
  e(3, 1, 'read', -1),
];

describe('the audit log as the page exports it', () => {
  it('names the file by the update as the page counts it', () => {
    expect(auditFileName(0, 'csv')).toBe('audit-update-1.csv');
    expect(auditFileName(41, 'jsonl')).toBe('audit-update-42.jsonl');
    expect(auditFileName(Number.NaN, 'csv')).toBe('audit-update-0.csv');
  });

  it('has one row per message and attempt, counted by status', () => {
    const { rows, counts } = episodeAudit(EVENTS);
    expect(rows.map((r) => r.status)).toEqual(['allowed', 'blocked', 'unsanctioned', 'caught', 'allowed']);
    expect(counts).toEqual({ allowed: 2, unsanctioned: 1, caught: 1, blocked: 1 });
    expect(auditSummary(counts)).toBe('5 rows: 2 allowed, 2 unofficial (1 caught), 1 blocked');
    expect(auditSummary({ allowed: 1, unsanctioned: 0, caught: 0, blocked: 0 })).toBe('1 row: 1 allowed');
  });

  it('writes CSV with its header and JSON Lines, one line a row', () => {
    const { rows } = episodeAudit(EVENTS);
    const csv = auditFile(rows, 2, 'csv');
    expect(csv.name).toBe('audit-update-3.csv');
    expect(csv.type).toBe('text/csv');
    const lines = csv.text.trimEnd().split('\n');
    expect(lines[0]).toBe('minute,from,to,kind,carried,useful,status');
    expect(lines.slice(1)).toEqual([
      '0,0,1,dm,0,true,allowed',
      '1,2,1,attempt,,false,blocked',
      '1,1,side-board,side,1,false,unsanctioned',
      '2,2,side-board,side,,false,caught',
      '2,0,board,post,0,false,allowed',
    ]);
    const jsonl = auditFile(rows, 2, 'jsonl');
    expect(jsonl.name).toBe('audit-update-3.jsonl');
    const parsed = jsonl.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(parsed.map((r) => r.status)).toEqual(rows.map((r) => r.status));
    expect(auditFile([], 0, 'jsonl').text).toBe('');
  });
});
