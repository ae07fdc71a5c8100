import type { SimEvent } from './events';

/**
 * The audit log of an episode (docs/RUNFILE.md, "The audit log"): every message and every attempt,
 * minute by minute, read out of the episode's events. A row is one DM, assignment, post on the
 * board, post on the unofficial board, or a message the channel policy blocked (sim/channels.ts).
 * Board reads, work and the rest are not messages and have no row.
 */
export interface AuditRow {
  /** Minute the message was sent in (0-based). */
  t: number;
  /** The sender. */
  from: number;
  /** The receiver, or `board` / `side-board` for a post on either. */
  to: number | 'board' | 'side-board';
  /** dm, assign (orchestrator: a DM handing over a claim), post, side (a post on the unofficial board), attempt. */
  kind: 'dm' | 'assign' | 'post' | 'side' | 'attempt';
  /** The interfaces (module indices) it carried; null in files recorded before they were logged. */
  carried: number[] | null;
  /** It handed over an interface that unblocks an unfinished module (a post: anything new went up). */
  useful: boolean;
  /**
   * allowed: a sanctioned channel delivered it; unsanctioned: the unofficial board delivered it and
   * nobody caught it; caught: the monitor caught it (delivered, and charged at the deadline);
   * blocked: the policy stopped it (nothing delivered, the minute lost).
   */
  status: 'allowed' | 'unsanctioned' | 'caught' | 'blocked';
}

export const AUDIT_STATUSES = ['allowed', 'unsanctioned', 'caught', 'blocked'] as const;

/** Interface indices of a bitmask, lowest first. */
export function interfacesOf(mask: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < 32; k++) if ((mask >>> k) & 1) out.push(k);
  return out;
}

/**
 * Whether a `dm` event was a message: a DM to a teammate carries what its sender knew (`carried`,
 * logged since the audit log); a DM to oneself or to nobody carries nothing and is no message. In
 * files from before (`legacy`: no event carries anything), a DM counts unless it went to its
 * sender or to nobody.
 */
function isMessage(e: SimEvent, legacy: boolean): boolean {
  return legacy ? e.target >= 0 && e.target !== e.agent : e.carried !== undefined;
}

/** The audit log of `events` (one episode's), in event order. */
export function auditLog(events: readonly SimEvent[]): AuditRow[] {
  const rows: AuditRow[] = [];
  const legacy = !events.some((e) => e.carried !== undefined);
  for (const e of events) {
    const carried = e.carried === undefined ? null : interfacesOf(e.carried);
    const row = (to: AuditRow['to'], kind: AuditRow['kind'], status: AuditRow['status']): AuditRow => ({
      t: e.t,
      from: e.agent,
      to,
      kind,
      carried,
      useful: kind === 'attempt' ? false : e.useful,
      status,
    });
    if (e.kind === 'dm' && isMessage(e, legacy)) rows.push(row(e.target, 'dm', 'allowed'));
    else if (e.kind === 'assign') rows.push(row(e.target, 'assign', 'allowed'));
    else if (e.kind === 'post') rows.push(row('board', 'post', 'allowed'));
    else if (e.kind === 'side') rows.push(row('side-board', 'side', e.caught ? 'caught' : 'unsanctioned'));
    else if (e.kind === 'attempt') rows.push(row(e.target >= 0 ? e.target : 'board', 'attempt', 'blocked'));
  }
  return rows;
}

/** Counts of an audit log by status. */
export function auditCounts(rows: readonly AuditRow[]): Record<AuditRow['status'], number> {
  const out = { allowed: 0, unsanctioned: 0, caught: 0, blocked: 0 };
  for (const r of rows) out[r.status]++;
  return out;
}

const CSV_HEADER = 'minute,from,to,kind,carried,useful,status';

/** The log as CSV: one row a message, interfaces carried separated by spaces (empty when unknown). */
export function auditCsv(rows: readonly AuditRow[]): string {
  const lines = rows.map((r) => [r.t, r.from, r.to, r.kind, r.carried === null ? '' : r.carried.join(' '), r.useful, r.status].join(','));
  return [CSV_HEADER, ...lines].join('\n') + '\n';
}

/** The log as JSON Lines: one JSON object a message. */
export function auditJsonl(rows: readonly AuditRow[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
}
