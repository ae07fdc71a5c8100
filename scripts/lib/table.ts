/** Renders rows as an aligned plain-text table (the `left` columns left-aligned, by default the first; the rest right-aligned). */
export function formatTable(header: string[], rows: string[][], left: readonly number[] = [0]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const fmt = (r: string[]) => r.map((x, c) => (left.includes(c) ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join('  ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

/** Rows as CSV, quoting cells that need it. */
export function toCsv(header: string[], rows: (string | number | null)[][]): string {
  const cell = (v: string | number | null) => {
    const s = v === null ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\n') + '\n';
}
