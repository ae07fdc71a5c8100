import type { ViewPart } from '../store/view';

/** The stage's rows of views on a wide screen, as grid areas (each name a view's), and each row's share of the height. */
const STAGE_ROWS: { areas: [ViewPart, ViewPart]; names: [string, string]; height: string }[] = [
  { areas: ['countdown', 'countdown'], names: ['count', 'count'], height: 'auto' },
  { areas: ['curve', 'dm'], names: ['curve', 'dm'], height: 'minmax(0, 1.3fr)' },
  { areas: ['swimlanes', 'board'], names: ['lanes', 'board'], height: 'minmax(0, 1fr)' },
];

/**
 * The stage's grid without the hidden views (`#hide=board`): a view whose neighbour is hidden takes
 * the whole row, and a row with both hidden goes, so no hidden view leaves a hole.
 */
export function stageGrid(shown: (p: ViewPart) => boolean): { areas: string; rows: string } {
  const rows = STAGE_ROWS.flatMap((r) => {
    const [a, b] = r.areas;
    if (!shown(a) && !shown(b)) return [];
    const left = shown(a) ? r.names[0] : r.names[1];
    const right = shown(b) ? r.names[1] : r.names[0];
    return [{ line: `'${left} ${right}'`, height: r.height }];
  });
  return { areas: rows.map((r) => r.line).join(' '), rows: rows.map((r) => r.height).join(' ') };
}
