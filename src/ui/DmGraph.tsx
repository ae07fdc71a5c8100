import { scaleLinear } from 'd3';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { UpdateMessage } from '../worker/protocol';
import { selectSelectedAgent, useApp } from '../store/store';
import { useFrame } from './usePlayback';
import {
  aggregateDms,
  attemptLinks,
  type AttemptLink,
  BOARD_HALF,
  type GraphLayout,
  boardLinks,
  edgeSegment,
  layoutGraph,
  type LayoutJob,
  layoutJob,
  nodeRadius,
  recentDms,
  sentCounts,
  sideLinks,
  type SideLink,
  structureLinks,
  type StructureLink,
} from './dmGraphLayout';
import { Explain } from './Explain';
import './DmGraph.css';

const WIDTH = 480;
/** The box's height over its width: from the panel's shape on the stage (in steps, so a resize does not lay out at every pixel). */
const ASPECTS = { min: 0.45, max: 1.1, initial: 0.7, step: 0.05 };

/** The aspect step nearest to a box of width w and height h. */
function aspectOf(w: number, h: number): number {
  if (!(w > 0) || !(h > 0)) return ASPECTS.initial;
  const r = Math.min(ASPECTS.max, Math.max(ASPECTS.min, h / w));
  return Math.round(r / ASPECTS.step) * ASPECTS.step;
}

/** Follows the shape of the graph's box (on the stage its height comes from the layout, not from the viewBox). */
function useBoxAspect(): [number, (el: SVGSVGElement | null) => void] {
  const [aspect, setAspect] = useState(ASPECTS.initial);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((el: SVGSVGElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el || typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(([entry]) => {
      const next = aspectOf(entry.contentRect.width, entry.contentRect.height);
      setAspect((a) => (Math.abs(a - next) > 1e-9 ? next : a));
    });
    observer.current.observe(el);
  }, []);
  return [aspect, ref];
}
/** Most recent DMs drawn as travelling dots (the rest would only add clutter). */
const MAX_DOTS = 24;

const EXPLAIN =
  'Each circle is an agent; a bigger circle sent more direct messages. A line joins two agents that messaged each other so far in one rollout of the latest update, thicker for more messages, with arrowheads showing who sent to whom. Green lines are handoffs that unblocked someone (the message carried an interface another agent needed), as thick as their count; grey lines are the messages that did not help, as thick as all the messages between the two, so a pair that mostly chatters shows a thick grey line with a thin green core. The square is the public board, joined by dashed lines to agents that posted or read there. Dots are messages from the three minutes before the playback clock, stepping towards their recipient as the clock runs. A trained swarm on coupled tasks grows a few thick green lines from the agents that finish prerequisites; on parallel tasks the graph should stay nearly empty. Where the run has an unofficial board, the red diamond is that board and red dotted lines join it to the agents that posted there, a red dot on the line counting the posts the monitor caught; dashed lines crossed out are messages the channel policy blocked, the arrowhead at the agent (or the board) they were meant for: the minute was spent and nothing was delivered. Click an agent (or focus it and press Enter) to highlight it here and in the other views.';

const ORDER_LEGEND: Record<StructureLink['kind'], string> = { hire: 'the CEO hired', fire: 'the CEO fired', assign: 'the orchestrator assigned a module' };

function sideTitle(l: SideLink): string {
  return `agent ${l.agent}: ${l.posts} post${l.posts === 1 ? '' : 's'} on the unofficial board, ${l.useful} that unblocked someone${l.caught > 0 ? `, ${l.caught} caught by the monitor` : ''}`;
}

function attemptTitle(l: AttemptLink): string {
  const what = l.count === 1 ? 'message' : 'messages';
  return `agent ${l.from} → ${l.to >= 0 ? `agent ${l.to}` : 'the board'}: ${l.count} ${what} blocked by the channel policy (nothing delivered)`;
}

/** A small cross at the middle of a segment: the mark of a blocked message. */
function crossAt(s: { x1: number; y1: number; x2: number; y2: number }, half = 4): string {
  const x = (s.x1 + s.x2) / 2;
  const y = (s.y1 + s.y2) / 2;
  return `M${x - half},${y - half}L${x + half},${y + half}M${x - half},${y + half}L${x + half},${y - half}`;
}

function orderTitle(o: StructureLink): string {
  if (o.kind === 'assign') return `agent ${o.from} assigned module${o.modules.length > 1 ? 's' : ''} ${o.modules.join(', ')} to agent ${o.to}`;
  return `agent ${o.from} ${o.kind === 'hire' ? 'hired' : 'fired'} agent ${o.to}${o.count > 1 ? ` ${o.count} times` : ''}`;
}

/** Force-layout ticks from scratch, and from the previous episode's layout. */
const COLD_TICKS = 150;
const WARM_TICKS = 50;

/** Force layouts by graph shape, so an unchanged graph is not laid out again. */
const layoutCache = new Map<string, ReturnType<typeof layoutGraph>>();

/** What the force layout of an episode depends on; `key` identifies layouts that would come out alike. */
interface GraphShape {
  key: string;
  agents: number;
  edges: ReturnType<typeof aggregateDms>;
  boardAgents: number[];
  /** Agents that posted on the unofficial board, when the episode has any post there (else undefined: no node). */
  sideAgents?: number[];
  radii: number[];
  /** Island of every agent (islands structure), else undefined. */
  groups?: number[];
  /** Height of the layout box (its width is WIDTH). */
  height: number;
}

function graphShape(episode: UpdateMessage, height: number): GraphShape {
  const events = episode.events;
  const groups = episode.structure?.islandOf;
  const agents = Math.max(1, groups?.length ?? 0, ...events.map((e) => Math.max(e.agent, e.target) + 1));
  const edges = aggregateDms(events, agents);
  const boardAgents = boardLinks(events, agents).map((b) => b.agent);
  const side = sideLinks(events, agents);
  const sideAgents = side.length ? side.map((l) => l.agent) : undefined;
  const radii = sentCounts(events, agents).map(nodeRadius);
  // Who talks to whom, counts on a log scale, node sizes: mostly unchanged between updates.
  const key = `${agents}|${edges.map((e) => `${e.from}-${e.to}-${Math.round(Math.log2(e.count + 1))}`).join(',')}|${boardAgents.join(',')}|${sideAgents?.join(',') ?? '-'}|${radii.map((r) => Math.round(r)).join(',')}|${groups?.join(',') ?? ''}|${height}`;
  return { key, agents, edges, boardAgents, sideAgents, radii, groups, height };
}

/** Whether a layout can warm-start one of `shape`: the same agents, and an unofficial board in both or neither. */
function sameNodes(shape: GraphShape | null, l: GraphLayout | null): l is GraphLayout {
  return !!shape && !!l && l.nodes.length === shape.agents && (l.side !== undefined) === (shape.sideAgents !== undefined);
}

/** Lays out a graph shape (warm from `from` when given) and caches it by shape. */
function layOut(shape: GraphShape, from: GraphLayout | null): LayoutJob {
  return layoutJob(shape.agents, shape.edges, WIDTH, shape.height, {
    boardAgents: shape.boardAgents,
    sideAgents: shape.sideAgents,
    radii: shape.radii,
    margin: 6,
    ticks: from ? WARM_TICKS : COLD_TICKS,
    from: from ?? undefined,
    groups: shape.groups,
  });
}

/** Longest a layout runs in one task before it yields to the page (its ticks go on in the next). */
const LAYOUT_SLICE_MS = 8;

/** A circle around each island's agents, for the islands structure. */
function islandHulls(
  groups: readonly number[] | undefined,
  nodes: readonly { x: number; y: number }[],
  radii: readonly number[],
): { island: number; x: number; y: number; r: number }[] {
  if (!groups) return [];
  const out = [];
  for (const island of [...new Set(groups)].sort((a, b) => a - b)) {
    const members = nodes.map((p, a) => ({ p, a })).filter(({ a }) => groups[a] === island);
    if (!members.length) continue;
    const x = members.reduce((s, m) => s + m.p.x, 0) / members.length;
    const y = members.reduce((s, m) => s + m.p.y, 0) / members.length;
    const r = Math.max(...members.map((m) => Math.hypot(m.p.x - x, m.p.y - y) + (radii[m.a] ?? 10))) + 14;
    out.push({ island, x, y, r });
  }
  return out;
}

/** Who sent direct messages to whom in this update's showcase rollout, as a force-laid-out graph. */
export function DmGraph() {
  const frame = useFrame(3); // shown 3 frames after the first episode appears (useStaggeredStart)
  const episode = frame?.episode ?? null;
  const selected = useApp(selectSelectedAgent);
  const select = useApp((s) => s.selectAgent);
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');

  // The layout comes from the whole episode, so nodes stay put while the playback clock runs.
  const [aspect, boxRef] = useBoxAspect();
  const height = Math.round(WIDTH * aspect);
  const shape = useMemo(() => (episode ? graphShape(episode, height) : null), [episode, height]);
  const previous = useRef<GraphLayout | null>(null);
  const [, laidOut] = useState(0);
  const cached = shape ? layoutCache.get(shape.key) : undefined;
  const warmFrom = sameNodes(shape, previous.current) ? previous.current : null;
  // Force layouts run after the render that brought the new episode, in slices of at most
  // LAYOUT_SLICE_MS (one task of 30-60 ms on a busy machine otherwise), so neither adds up to a long
  // task. Until it is done the previous layout serves (or, for the first episode or a new agent
  // count, the agents on a circle). A later layout starts warm from the last one: fewer ticks, and
  // agents stay where the eye left them.
  const laid = useMemo(
    () =>
      cached ??
      warmFrom ??
      (shape
        ? layoutGraph(shape.agents, shape.edges, WIDTH, shape.height, {
            boardAgents: shape.boardAgents,
            sideAgents: shape.sideAgents,
            radii: shape.radii,
            margin: 6,
            ticks: 0,
            groups: shape.groups,
          })
        : null),
    [cached, warmFrom, shape],
  );
  useEffect(() => {
    if (!shape || layoutCache.has(shape.key)) return;
    const job = layOut(shape, sameNodes(shape, previous.current) ? previous.current : null);
    let timer: ReturnType<typeof setTimeout>;
    const slice = () => {
      const t0 = performance.now();
      while (!job.done && performance.now() - t0 < LAYOUT_SLICE_MS) job.tick();
      if (!job.done) {
        timer = setTimeout(slice, 0);
        return;
      }
      if (layoutCache.size >= 64) layoutCache.clear();
      layoutCache.set(shape.key, job.result());
      laidOut((n) => n + 1);
    };
    timer = setTimeout(slice, 0);
    return () => clearTimeout(timer);
  }, [shape]);
  useEffect(() => {
    if (cached) previous.current = cached;
  }, [cached]);
  const placed = useMemo(() => (shape && laid ? { agents: shape.agents, laid } : null), [shape, laid]);

  // What has happened up to the clock.
  const graph = useMemo(() => {
    if (!frame || !placed) return null;
    const { agents, laid } = placed;
    const edges = aggregateDms(frame.events, agents);
    const sent = sentCounts(frame.events, agents);
    const board = boardLinks(frame.events, agents);
    const radii = sent.map(nodeRadius);
    const recent = recentDms(frame.events, agents, 3).slice(-MAX_DOTS);
    const orders = structureLinks(frame.events, agents);
    const side = sideLinks(frame.events, agents);
    const attempts = attemptLinks(frame.events, agents);
    return { agents, edges, sent, board, radii, layout: laid, recent, orders, side, attempts };
  }, [frame, placed]);

  if (!graph) {
    return (
      <section className="panel" aria-labelledby="dm-title" data-testid="dm-graph">
        <h2 id="dm-title">Direct messages</h2>
        <p className="empty">Start training to see who messages whom.</p>
      </section>
    );
  }

  const { agents, edges, sent, board, radii, layout, recent, orders, side, attempts } = graph;
  const lastMinute = recent.reduce((t, m) => Math.max(t, m.t), 0);
  const orderKinds = [...new Set(orders.map((o) => o.kind))];
  const boardPos = layout.board;
  const maxCount = Math.max(1, ...edges.map((e) => e.count));
  const width = scaleLinear()
    .domain([1, Math.max(2, maxCount)])
    .range([1.5, 10])
    .clamp(true);
  const touches = (a: number, b: number) => selected === null || selected === a || selected === b;
  const toggle = (a: number) => select(selected === a ? null : a);
  const onKey = (a: number) => (ev: KeyboardEvent<SVGGElement>) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      toggle(a);
    }
  };
  const total = sent.reduce((a, b) => a + b, 0);
  const islands = islandHulls(shape?.groups, layout.nodes, radii);
  const useful = edges.reduce((a, e) => a + e.usefulCount, 0);
  const sidePos = layout.side ?? null;
  const sidePosts = side.reduce((a, l) => a + l.posts, 0);
  const caught = side.reduce((a, l) => a + l.caught, 0);
  const blocked = attempts.reduce((a, l) => a + l.count, 0);
  const unsanctioned = `${sidePosts > 0 ? `; ${sidePosts} posted on the unofficial board${caught > 0 ? `, ${caught} caught` : ''}` : ''}${blocked > 0 ? `; ${blocked} blocked by the channel policy` : ''}`;

  return (
    <section className="panel" aria-labelledby="dm-title" data-testid="dm-graph">
      <h2 id="dm-title">
        Direct messages <Explain>{EXPLAIN}</Explain>
      </h2>
      <svg
        ref={boxRef}
        className="dm-graph"
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="group"
        aria-label={`Direct messages between ${agents} agents: ${total} sent, ${useful} useful${unsanctioned}`}
      >
        <defs>
          {(['useful', 'plain', 'hire', 'fire', 'assign', 'side', 'attempt'] as const).map((k) => (
            <marker
              key={k}
              id={`${uid}-arrow-${k}`}
              className={`dm-arrow ${k}`}
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              markerUnits="userSpaceOnUse"
              orient="auto-start-reverse"
            >
              <path d="M0,0 L10,5 L0,10 z" />
            </marker>
          ))}
        </defs>

        {islands.map((h) => (
          <g key={`i${h.island}`} className="dm-island" data-testid="island-hull">
            <circle cx={h.x} cy={h.y} r={h.r} />
            <text className="dm-island-label" x={h.x} y={h.y - h.r + 12} textAnchor="middle">
              island {h.island}
            </text>
          </g>
        ))}
        {boardPos &&
          board.map((b) => {
            const s = edgeSegment(boardPos, layout.nodes[b.agent], BOARD_HALF, radii[b.agent]);
            return (
              <line key={`b${b.agent}`} className={`dm-board-link${touches(b.agent, b.agent) ? '' : ' faded'}`} {...s}>
                <title>{`agent ${b.agent}: ${b.posts} posts, ${b.reads} reads`}</title>
              </line>
            );
          })}

        {edges.map((e) => {
          const a = layout.nodes[e.from];
          const b = layout.nodes[e.to];
          const s = edgeSegment(a, b, radii[e.from], radii[e.to], 0, 3);
          const highlighted = selected !== null && (selected === e.from || selected === e.to);
          const state = `${touches(e.from, e.to) ? '' : ' faded'}${highlighted ? ' highlighted' : ''}`;
          // Every message in grey, as thick as their count; the handoffs among them as a green core
          // as thick as theirs: a pair that mostly chatters is a thick grey line with a thin green heart.
          const wasted = e.count - e.usefulCount;
          const arrow = e.useful ? 'useful' : 'plain';
          return (
            <g key={`e${e.from}-${e.to}`}>
              {wasted > 0 && (
                <line
                  className={`dm-edge plain${state}`}
                  strokeWidth={width(e.count)}
                  markerEnd={!e.useful && e.forward > 0 ? `url(#${uid}-arrow-plain)` : undefined}
                  markerStart={!e.useful && e.backward > 0 ? `url(#${uid}-arrow-plain)` : undefined}
                  {...s}
                />
              )}
              {e.useful && (
                <line
                  className={`dm-edge useful${state}`}
                  strokeWidth={width(e.usefulCount)}
                  markerEnd={e.forward > 0 ? `url(#${uid}-arrow-${arrow})` : undefined}
                  markerStart={e.backward > 0 ? `url(#${uid}-arrow-${arrow})` : undefined}
                  {...s}
                />
              )}
              <title>{`agent ${e.from} → agent ${e.to}: ${e.forward}, agent ${e.to} → agent ${e.from}: ${e.backward}; ${e.usefulCount} of ${e.count} unblocked someone`}</title>
            </g>
          );
        })}

        {orders.map((o) => {
          // Offset sideways, so an order and a DM between the same pair stay apart.
          const s = edgeSegment(layout.nodes[o.from], layout.nodes[o.to], radii[o.from], radii[o.to], o.kind === 'fire' ? -7 : 7, 3);
          return (
            <line
              key={`o${o.kind}${o.from}-${o.to}`}
              className={`dm-order ${o.kind}${touches(o.from, o.to) ? '' : ' faded'}`}
              markerEnd={`url(#${uid}-arrow-${o.kind})`}
              data-testid={`dm-order-${o.kind}`}
              {...s}
            >
              <title>{orderTitle(o)}</title>
            </line>
          );
        })}

        {sidePos &&
          side.map((l) => {
            // From the poster to the unofficial board; the monitor's catches as a dot with their count on the line.
            const s = edgeSegment(layout.nodes[l.agent], sidePos, radii[l.agent], BOARD_HALF, 0, 3);
            const f = 0.5;
            return (
              <g
                key={`s${l.agent}`}
                className={`dm-side${l.caught > 0 ? ' caught' : ''}${touches(l.agent, l.agent) ? '' : ' faded'}`}
                data-testid="dm-side-edge"
                data-posts={l.posts}
                data-caught={l.caught}
              >
                <line className="dm-side-link" strokeWidth={width(l.posts)} markerEnd={`url(#${uid}-arrow-side)`} {...s} />
                {l.caught > 0 && (
                  <g className="dm-side-caught" data-testid="dm-side-caught" transform={`translate(${s.x1 + f * (s.x2 - s.x1)},${s.y1 + f * (s.y2 - s.y1)})`}>
                    <circle r={6.5} />
                    <text dy="0.35em" textAnchor="middle">
                      {l.caught}
                    </text>
                  </g>
                )}
                <title>{sideTitle(l)}</title>
              </g>
            );
          })}

        {attempts.map((l) => {
          // A blocked DM is offset to the other side from a structure's orders; a blocked post goes to the board.
          const to = l.to >= 0 ? layout.nodes[l.to] : boardPos;
          if (!to) return null;
          const s = edgeSegment(layout.nodes[l.from], to, radii[l.from], l.to >= 0 ? radii[l.to] : BOARD_HALF, l.to >= 0 ? -5 : 0, 3);
          return (
            <g
              key={`a${l.from}-${l.to}`}
              className={`dm-attempt${l.to < 0 ? ' to-board' : ''}${touches(l.from, l.to < 0 ? l.from : l.to) ? '' : ' faded'}`}
              data-testid="dm-attempt"
              data-count={l.count}
            >
              <line markerEnd={`url(#${uid}-arrow-attempt)`} {...s} />
              <path className="dm-attempt-cross" d={crossAt(s)} />
              <title>{attemptTitle(l)}</title>
            </g>
          );
        })}

        {recent.map((m, i) => {
          // Dots step along their edge with the playback clock (a third of the way per minute), not by
          // a running animation: on the stage the graph is always in sight, and a per-frame animation
          // there takes CPU from training.
          const s = edgeSegment(layout.nodes[m.from], layout.nodes[m.to], radii[m.from], radii[m.to]);
          const cls = `dm-dot ${m.useful ? 'useful' : 'plain'}${touches(m.from, m.to) ? '' : ' faded'}`;
          const f = Math.min(0.85, 0.25 + 0.3 * Math.max(0, lastMinute - m.t));
          return <circle key={`d${i}`} className={cls} r={3.5} cx={s.x1 + f * (s.x2 - s.x1)} cy={s.y1 + f * (s.y2 - s.y1)} />;
        })}

        {boardPos && (
          <g
            className={`dm-board${selected === null || board.some((b) => b.agent === selected) ? '' : ' faded'}`}
            transform={`translate(${boardPos.x},${boardPos.y})`}
          >
            <rect x={-BOARD_HALF} y={-BOARD_HALF} width={2 * BOARD_HALF} height={2 * BOARD_HALF} rx={2} />
            <text className="dm-node-label" dy="0.32em" textAnchor="middle">
              board
            </text>
            <title>{`public board: ${board.reduce((a, b) => a + b.posts, 0)} posts, ${board.reduce((a, b) => a + b.reads, 0)} reads`}</title>
          </g>
        )}

        {sidePos && (
          <g
            className={`dm-side-board${selected === null || side.some((l) => l.agent === selected) ? '' : ' faded'}`}
            transform={`translate(${sidePos.x},${sidePos.y})`}
            data-testid="dm-side-board"
          >
            <rect x={-BOARD_HALF} y={-BOARD_HALF} width={2 * BOARD_HALF} height={2 * BOARD_HALF} rx={2} transform="rotate(45)" />
            <text className="dm-node-label" dy="0.32em" textAnchor="middle">
              side
            </text>
            <title>{`unofficial board: ${sidePosts} posts${caught > 0 ? `, ${caught} caught by the monitor` : ''}`}</title>
          </g>
        )}

        {layout.nodes.map((p, a) => (
          <g
            key={`n${a}`}
            className={`dm-node${selected === a ? ' selected' : ''}${selected === null || selected === a || edges.some((e) => (e.from === a || e.to === a) && (e.from === selected || e.to === selected)) ? '' : ' faded'}`}
            transform={`translate(${p.x},${p.y})`}
            tabIndex={0}
            role="button"
            aria-pressed={selected === a}
            aria-label={`agent ${a}, sent ${sent[a]} messages`}
            onClick={() => toggle(a)}
            onKeyDown={onKey(a)}
          >
            <circle r={radii[a]} />
            <text className="dm-node-label" dy="0.32em" textAnchor="middle">
              {a}
            </text>
          </g>
        ))}
      </svg>
      <ul className="legend">
        <li>
          <span className="dm-key useful" /> handoff (unblocked someone)
        </li>
        <li>
          <span className="dm-key plain" /> message that unblocked nobody
        </li>
        <li>
          <span className="dm-key board-square" /> the public board
        </li>
        <li>
          <span className="dm-key board" /> board post / read
        </li>
        {orderKinds.map((k) => (
          <li key={k}>
            <span className={`dm-key ${k}`} /> {ORDER_LEGEND[k]}
          </li>
        ))}
        {sidePos && (
          <li data-testid="dm-legend-side">
            <span className="dm-key side-diamond" /> <span className="dm-key side" /> unofficial board / post there
          </li>
        )}
        {caught > 0 && (
          <li data-testid="dm-legend-caught">
            <span className="dm-key caught" /> posts the monitor caught
          </li>
        )}
        {attempts.length > 0 && (
          <li data-testid="dm-legend-attempt">
            <span className="dm-key attempt">×</span> blocked by the channel policy
          </li>
        )}
        <li className="legend-extra">line width: messages between the pair; circle size: messages sent</li>
      </ul>
    </section>
  );
}
