import { scaleBand } from 'd3';
import type { StructureInfo } from '../core/runFormat';
import { MAX_TMAX } from '../core/runChecks';
import type { EventKind, SimEvent } from '../sim/events';
import { MAX_AGENTS } from '../sim/task';
import { memo, useMemo } from 'react';
import { selectSelectedAgent, useApp } from '../store/store';
import { Explain } from './Explain';
import { completionsByMinute } from './feed';
import { placeLabels, textWidth } from './geometry';
import { useFrame } from './usePlayback';
import { useBoxSize } from './useBoxSize';

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
  // Structures only (CEO, orchestrator): drawn darker than the kinds above, labelled with the target.
  assign: '#005a3c',
  hire: '#6a51c9',
  fire: '#b84a00',
  // Channels (sim/channels): a message the policy blocked; a post on the unofficial board.
  attempt: '#000000',
  side: '#b2182b',
};

const LEGEND: Exclude<EventKind, 'complete'>[] = ['work', 'dm', 'post', 'read', 'claim', 'collide', 'blocked', 'wasted', 'idle'];
/** Kinds only some structures produce: in the legend when the episode has them. */
const STRUCTURE_KINDS: Exclude<EventKind, 'complete'>[] = ['assign', 'hire', 'fire', 'attempt', 'side'];

/** The cells of the swimlane chart: one per agent and minute, from the showcase rollout's events. */
export function laneCells(events: readonly SimEvent[]): { t: number; agent: number; kind: Exclude<EventKind, 'complete'>; label: string }[] {
  return events
    .filter((e): e is SimEvent & { kind: Exclude<EventKind, 'complete'> } => e.kind !== 'complete')
    .map((e) => ({
      t: e.t,
      agent: e.agent,
      kind: e.kind,
      label:
        e.kind === 'dm' || e.kind === 'hire' || e.kind === 'fire'
          ? `→${e.target}`
          : e.kind === 'assign'
            ? `${e.module}→${e.target}`
            : e.module >= 0
              ? String(e.module)
              : '',
    }));
}

type Cell = ReturnType<typeof laneCells>[number];

/**
 * How many lanes and minutes the chart draws: enough for every agent that acted (and, under the CEO
 * structure, the whole swarm), never more than MAX_AGENTS lanes or MAX_TMAX minutes, whatever an
 * episode holds. A loop, not `Math.max(...events)`, so a long event list cannot overflow the stack.
 */
export function laneExtent(events: readonly SimEvent[], tmax: number, st: StructureInfo | undefined, swarmSize: number): { agents: number; minutes: number } {
  let agents = Math.max(1, st?.islandOf?.length ?? 0, st?.kind === 'ceo' ? swarmSize : 0);
  for (const e of events) if (e.agent + 1 > agents) agents = e.agent + 1;
  const clamp = (n: number, max: number) => (Number.isFinite(n) ? Math.min(max, Math.max(1, Math.floor(n))) : 1);
  return { agents: clamp(agents, MAX_AGENTS), minutes: clamp(tmax, MAX_TMAX) };
}

/** One minute of every lane; memoised, so the clock moving on renders only the new minute. */
const Minute = memo(function Minute({
  cells,
  x,
  width,
  rowH,
  selected,
}: {
  cells: readonly Cell[];
  x: number;
  width: number;
  rowH: number;
  selected: number | null;
}) {
  return (
    <g>
      {cells.map((c) => (
        <g key={c.agent}>
          <rect
            x={x}
            y={c.agent * rowH + 2}
            width={width}
            height={rowH - 5}
            fill={KIND_COLOURS[c.kind]}
            opacity={selected === null || selected === c.agent ? 1 : 0.3}
          >
            <title>{`minute ${c.t}, agent ${c.agent}: ${c.kind} ${c.label}`}</title>
          </rect>
          {c.label && width > 12 && (
            <text className="cell-label" x={x + width / 2} y={c.agent * rowH + rowH / 2} dy="0.1em" textAnchor="middle">
              {c.label}
            </text>
          )}
        </g>
      ))}
    </g>
  );
});

/** An agent's lane label, with its part in the structure: CEO, orchestrator and assignment, or island. */
export function laneLabel(a: number, st: StructureInfo | undefined): string {
  if (st?.kind === 'ceo' && a === 0) return 'agent 0 · CEO';
  if (st?.kind === 'orchestrator') {
    if (a === 0) return 'agent 0 · orch.';
    const m = st.assignment?.[a] ?? -1;
    return m >= 0 ? `agent ${a} · m${m}` : `agent ${a}`;
  }
  if (st?.kind === 'islands' && st.islandOf) return `agent ${a} · isl. ${st.islandOf[a]}`;
  return `agent ${a}`;
}

/** One swimlane per agent: what it did each minute of the showcase episode, up to the playback clock. */
export function Swimlanes() {
  const frame = useFrame(2); // shown 2 frames after the first episode appears (useStaggeredStart)
  const selected = useApp(selectSelectedAgent);
  const select = useApp((s) => s.selectAgent);
  const episode = frame?.episode ?? null;
  const byMinute = useMemo(() => {
    const out: Cell[][] = [];
    for (const c of episode ? laneCells(episode.events) : []) if (c.t >= 0 && c.t <= MAX_TMAX && c.agent < MAX_AGENTS) (out[c.t] ??= []).push(c);
    return out;
  }, [episode]);
  const tick = frame?.tick ?? 0;
  // Under the CEO structure agents who were never hired still get a (blank) lane.
  const swarmSize = useApp((s) => (s.replay ? s.replay.run.config.agents : s.config.agents));
  // Drawn in its box's pixels: on the stage the lanes grow to the box's height, and the labels keep their size.
  const [box, boxRef] = useBoxSize<SVGSVGElement>({ width: 640, height: 166 });
  // Presenter mode draws its labels at 16.5 px (stage.css): wider names, taller rows.
  const presenter = useApp((s) => s.view.presenter);
  if (!frame) {
    return (
      <section className="panel" aria-labelledby="lanes-title" data-testid="swimlanes">
        <h2 id="lanes-title">What each agent did</h2>
        <p className="empty">Start training to see the swarm at work.</p>
      </section>
    );
  }
  const { length } = frame;
  const st = frame.episode.structure;
  const { agents, minutes } = laneExtent(frame.episode.events, frame.episode.metrics.tmax, st, swarmSize);
  const width = Math.max(320, box.width);
  // Room for "agent 7" at 16.5 px bold beside the lanes, with a few pixels to spare (it touched the box's edge at 76).
  const left = presenter ? (st ? 150 : 84) : st ? 96 : 56;
  const labelPx = presenter ? 16.5 : 10;
  const heads = st?.headCount;
  const rowH = Math.min(presenter ? 44 : 24, Math.max(presenter ? 20 : 12, Math.floor((box.height - 22) / (agents + (heads ? 1 : 0)))));
  const foot = presenter ? 28 : 22;
  const headsY = agents * rowH + 4;
  const height = agents * rowH + foot + (heads ? rowH : 0);
  const x = scaleBand<number>()
    .domain(Array.from({ length: minutes }, (_, i) => i))
    .range([left, width - 4])
    .paddingInner(0.08);
  const clockX = tick >= minutes ? width - 4 : (x(tick) ?? left) - (x.step() - x.bandwidth()) / 2;
  const completes = completionsByMinute(frame.events.filter((e) => e.kind === 'complete').map((e) => ({ minute: e.t, module: e.module })));
  // One row of labels under the lanes: a label that would overlap the one before is left out.
  const doneLanes = placeLabels(
    completes.map((c) => ({ x: (x(c.minute) ?? 0) + x.bandwidth() / 2, width: textWidth(`✓${c.modules.join(',')}`, labelPx) })),
    1,
  );
  const toggle = (a: number) => select(selected === a ? null : a);
  return (
    <section className="panel" aria-labelledby="lanes-title" data-testid="swimlanes">
      <h2 id="lanes-title">
        What each agent did{' '}
        <Explain>
          One row per agent, one box per minute of one rollout from the latest update, filling in as the clock runs. Blue boxes are work (the number is the
          module), green ones direct messages (→ recipient), red ones collisions (two agents on one module: one minute wasted), purple ones blocked work (the
          agent lacked an interface). A trained swarm shows long blue runs, few red boxes, and green handoffs right after a module finishes. Click an agent's
          name to highlight it everywhere.
        </Explain>
      </h2>
      <svg ref={boxRef} viewBox={`0 0 ${width} ${height}`} role="group" aria-label={`Swimlanes of ${agents} agents, minute ${tick} of ${length}`}>
        {Array.from({ length: agents }, (_, a) => (
          <g key={a} className={selected === a ? 'lane selected' : 'lane'}>
            <text
              className="tick lane-label"
              x={left - 6}
              y={a * rowH + rowH / 2}
              dy="0.32em"
              textAnchor="end"
              tabIndex={0}
              role="button"
              aria-pressed={selected === a}
              aria-label={`agent ${a}`}
              onClick={() => toggle(a)}
              onKeyDown={(ev) => {
                if (ev.key === 'Enter' || ev.key === ' ') {
                  ev.preventDefault();
                  toggle(a);
                }
              }}
            >
              {laneLabel(a, st)}
            </text>
            <line className="grid" x1={left} x2={width - 4} y1={(a + 1) * rowH - 1} y2={(a + 1) * rowH - 1} />
          </g>
        ))}
        {byMinute.slice(0, tick).map((cells, t) => (
          <Minute key={t} cells={cells} x={x(t) ?? 0} width={x.bandwidth()} rowH={rowH} selected={selected} />
        ))}
        {heads && (
          <g data-testid="headcount">
            <text className="tick lane-label" x={left - 6} y={headsY + rowH / 2} dy="0.32em" textAnchor="end">
              head count
            </text>
            {heads.slice(0, tick).map((h, t) => (
              <text key={t} className="tick" x={(x(t) ?? 0) + x.bandwidth() / 2} y={headsY + rowH / 2} dy="0.32em" textAnchor="middle">
                {h}
              </text>
            ))}
          </g>
        )}
        {tick < length && <line className="clock-now" x1={clockX} x2={clockX} y1={0} y2={agents * rowH} data-testid="lanes-clock" />}
        {completes.map((c, i) =>
          doneLanes[i] < 0 ? null : (
            <text key={c.minute} className="tick" x={(x(c.minute) ?? 0) + x.bandwidth() / 2} y={height - 6} textAnchor="middle">
              ✓{c.modules.join(',')}
              <title>{`${c.modules.length > 1 ? 'modules' : 'module'} ${c.modules.join(', ')} finished in minute ${c.minute}`}</title>
            </text>
          ),
        )}
      </svg>
      <ul className="legend">
        {[...LEGEND, ...STRUCTURE_KINDS.filter((k) => byMinute.some((m) => m.some((c) => c.kind === k)))].map((k) => (
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
