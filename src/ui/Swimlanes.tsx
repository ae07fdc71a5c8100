import { scaleBand } from 'd3';
import type { EventKind, SimEvent } from '../sim/events';
import { useApp } from '../store/store';
import { useShowcase } from './useShowcase';
import { Explain } from './Explain';

/** Okabe-Ito based colours per action kind, readable with colour-vision deficiencies. */
export const KIND_COLOURS: Record<Exclude<EventKind, 'complete'>, string> = {
  work: '#0072b2',
  collide: '#d55e00',
  blocked: '#cc79a7',
  wasted: '#999999',
  claim: '#e69f00',
  dm: '#009e73',
  post: '#56b4e9',
  read: '#f0e442',
  idle: 'transparent',
};

const LEGEND: Exclude<EventKind, 'complete'>[] = ['work', 'dm', 'post', 'read', 'claim', 'collide', 'blocked', 'wasted', 'idle'];

/** The cells of the swimlane chart: one per agent and minute, from the showcase rollout's events. */
export function laneCells(events: readonly SimEvent[]): { t: number; agent: number; kind: Exclude<EventKind, 'complete'>; label: string }[] {
  return events
    .filter((e): e is SimEvent & { kind: Exclude<EventKind, 'complete'> } => e.kind !== 'complete')
    .map((e) => ({
      t: e.t,
      agent: e.agent,
      kind: e.kind,
      label: e.kind === 'dm' ? `→${e.target}` : e.module >= 0 ? String(e.module) : '',
    }));
}

/** One swimlane per agent: what it did each minute of this update's showcase rollout. */
export function Swimlanes() {
  const last = useShowcase();
  const selected = useApp((s) => s.selectedAgent);
  const select = useApp((s) => s.selectAgent);
  if (!last) {
    return (
      <section className="panel" aria-labelledby="lanes-title" data-testid="swimlanes">
        <h2 id="lanes-title">What each agent did</h2>
        <p className="empty">Start training to see the swarm at work.</p>
      </section>
    );
  }
  const agents = Math.max(1, ...last.events.map((e) => e.agent + 1));
  const minutes = last.metrics.tmax;
  const width = 640;
  const left = 56;
  const rowH = 18;
  const height = agents * rowH + 22;
  const x = scaleBand<number>().domain(Array.from({ length: minutes }, (_, i) => i)).range([left, width - 4]).paddingInner(0.08);
  const completes = last.events.filter((e) => e.kind === 'complete');
  return (
    <section className="panel" aria-labelledby="lanes-title" data-testid="swimlanes">
      <h2 id="lanes-title">
        What each agent did <Explain>One row per agent, one box per minute of one rollout from the latest update. Blue boxes are work (the number is the module), green ones direct messages (→ recipient), red ones collisions (two agents on one module: one minute wasted), purple ones blocked work (the agent lacked an interface). A trained swarm shows long blue runs, few red boxes, and green handoffs right after a module finishes.</Explain>
      </h2>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Swimlanes of ${agents} agents over ${minutes} minutes`}>
        {Array.from({ length: agents }, (_, a) => (
          <g key={a} className={selected === a ? 'lane selected' : 'lane'}>
            <text className="tick lane-label" x={left - 6} y={a * rowH + rowH / 2} dy="0.32em" textAnchor="end" onClick={() => select(selected === a ? null : a)}>
              agent {a}
            </text>
            <line className="grid" x1={left} x2={width - 4} y1={(a + 1) * rowH - 1} y2={(a + 1) * rowH - 1} />
          </g>
        ))}
        {laneCells(last.events).map((c, i) => (
          <g key={i}>
            <rect x={x(c.t)} y={c.agent * rowH + 2} width={x.bandwidth()} height={rowH - 5} fill={KIND_COLOURS[c.kind]} opacity={selected === null || selected === c.agent ? 1 : 0.3}>
              <title>{`minute ${c.t}, agent ${c.agent}: ${c.kind} ${c.label}`}</title>
            </rect>
            {c.label && x.bandwidth() > 12 && (
              <text className="cell-label" x={(x(c.t) ?? 0) + x.bandwidth() / 2} y={c.agent * rowH + rowH / 2} dy="0.1em" textAnchor="middle">
                {c.label}
              </text>
            )}
          </g>
        ))}
        {completes.map((e, i) => (
          <text key={i} className="tick" x={(x(e.t) ?? 0) + x.bandwidth() / 2} y={height - 6} textAnchor="middle">
            ✓{e.module}
          </text>
        ))}
      </svg>
      <ul className="legend">
        {LEGEND.map((k) => (
          <li key={k}>
            <span className="swatch" style={{ background: KIND_COLOURS[k] }} />
            {k}
          </li>
        ))}
        <li>✓ module finished</li>
      </ul>
    </section>
  );
}
