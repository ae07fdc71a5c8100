import { auditCounts, auditCsv, auditJsonl, auditLog, type AuditRow } from '../sim/audit';
import type { SimEvent } from '../sim/events';

/** The audit log's file formats (sim/audit.ts) and what each is downloaded as. */
export const AUDIT_FORMATS = {
  csv: { type: 'text/csv', write: auditCsv },
  jsonl: { type: 'application/x-ndjson', write: auditJsonl },
} as const;
export type AuditFormat = keyof typeof AUDIT_FORMATS;

/** File name of the audit log of update `update` (0-based, as recorded): named by the update as the page counts it, from 1. */
export function auditFileName(update: number, format: AuditFormat): string {
  const n = Number.isInteger(update) && update >= 0 ? update + 1 : 0;
  return `audit-update-${n}.${format}`;
}

/** The audit log of one showcase episode as a file: its name, its MIME type and its text. */
export function auditFile(rows: readonly AuditRow[], update: number, format: AuditFormat): { name: string; type: string; text: string } {
  const f = AUDIT_FORMATS[format];
  return { name: auditFileName(update, format), type: f.type, text: f.write(rows) };
}

/** The showcase episode's audit log, and its rows counted by status. */
export function episodeAudit(events: readonly SimEvent[]): { rows: ReturnType<typeof auditLog>; counts: ReturnType<typeof auditCounts> } {
  const rows = auditLog(events);
  return { rows, counts: auditCounts(rows) };
}

/** In words: "14 messages: 9 allowed, 3 unofficial (1 caught), 2 blocked" (the parts that are not 0). */
export function auditSummary(counts: Record<AuditRow['status'], number>): string {
  const total = counts.allowed + counts.unsanctioned + counts.caught + counts.blocked;
  const unofficial = counts.unsanctioned + counts.caught;
  const parts = [`${counts.allowed} allowed`];
  if (unofficial > 0) parts.push(`${unofficial} unofficial${counts.caught > 0 ? ` (${counts.caught} caught)` : ''}`);
  if (counts.blocked > 0) parts.push(`${counts.blocked} blocked`);
  return `${total} ${total === 1 ? 'row' : 'rows'}: ${parts.join(', ')}`;
}
