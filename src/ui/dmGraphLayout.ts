import { forceCenter, forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY, type SimulationLinkDatum, type SimulationNodeDatum } from 'd3';
import type { SimEvent } from '../sim/events';
import { MAX_COORDINATE } from './geometry';

/** Direct messages between one pair of agents (from < to), both directions summed. */
export interface DmEdge {
  from: number;
  to: number;
  /** All DMs between the pair. */
  count: number;
  /** DMs sent from `from` to `to`. */
  forward: number;
  /** DMs sent from `to` to `from`. */
  backward: number;
  /** How many of them handed over an interface someone needed. */
  usefulCount: number;
  /** At least one of them was useful. */
  useful: boolean;
}

/** How often one agent used the public board. */
export interface BoardLink {
  agent: number;
  posts: number;
  reads: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface GraphLayout {
  /** One position per agent, by index. */
  nodes: Point[];
  /** Position of the board node, or null when none was asked for. */
  board: Point | null;
  /** Position of the unofficial board's node; absent when none was asked for (LayoutOptions.sideAgents). */
  side?: Point;
}

/** How often one agent posted on the unofficial board (sim/channels.ts), and how many of its posts the monitor caught. */
export interface SideLink {
  agent: number;
  posts: number;
  caught: number;
  /** Posts that handed over an interface someone needed. */
  useful: number;
}

/** Messages the channel policy blocked from one agent to another, or to the board (`to` -1). */
export interface AttemptLink {
  from: number;
  /** The agent the DM was meant for, or -1 for a post on the board. */
  to: number;
  count: number;
}

/** A DM the agent `from` sent to `to` in minute `t`. */
export interface RecentDm {
  t: number;
  from: number;
  to: number;
  useful: boolean;
}

function isAgent(a: number, agents: number): boolean {
  return Number.isInteger(a) && a >= 0 && a < agents;
}

/** Whether a DM event goes from a real agent to a different real agent. */
function isRealDm(e: SimEvent, agents: number): boolean {
  return e.kind === 'dm' && isAgent(e.agent, agents) && isAgent(e.target, agents) && e.agent !== e.target;
}

/**
 * Sums the DMs of an event log per unordered pair of agents. Self-DMs, DMs to nobody (target < 0)
 * and DMs that involve an agent outside `0..agents-1` are ignored. Sorted by (from, to).
 */
export function aggregateDms(events: readonly SimEvent[], agents: number): DmEdge[] {
  const byPair = new Map<number, DmEdge>();
  for (const e of events) {
    if (!isRealDm(e, agents)) continue;
    const from = Math.min(e.agent, e.target);
    const to = Math.max(e.agent, e.target);
    const key = from * agents + to;
    let edge = byPair.get(key);
    if (!edge) {
      edge = { from, to, count: 0, forward: 0, backward: 0, usefulCount: 0, useful: false };
      byPair.set(key, edge);
    }
    edge.count++;
    if (e.agent === from) edge.forward++;
    else edge.backward++;
    if (e.useful) {
      edge.usefulCount++;
      edge.useful = true;
    }
  }
  return [...byPair.values()].sort((a, b) => a.from - b.from || a.to - b.to);
}

/** DMs each agent sent (same filtering as aggregateDms). */
export function sentCounts(events: readonly SimEvent[], agents: number): number[] {
  const sent = new Array<number>(Math.max(0, agents)).fill(0);
  for (const e of events) if (isRealDm(e, agents)) sent[e.agent]++;
  return sent;
}

/** Agents that posted to or read from the board, with how often, sorted by agent. */
export function boardLinks(events: readonly SimEvent[], agents: number): BoardLink[] {
  const links = new Map<number, BoardLink>();
  for (const e of events) {
    if ((e.kind !== 'post' && e.kind !== 'read') || !isAgent(e.agent, agents)) continue;
    let l = links.get(e.agent);
    if (!l) {
      l = { agent: e.agent, posts: 0, reads: 0 };
      links.set(e.agent, l);
    }
    if (e.kind === 'post') l.posts++;
    else l.reads++;
  }
  return [...links.values()].sort((a, b) => a.agent - b.agent);
}

/** Agents that posted on the unofficial board, with how often and how many were caught, sorted by agent. */
export function sideLinks(events: readonly SimEvent[], agents: number): SideLink[] {
  const links = new Map<number, SideLink>();
  for (const e of events) {
    if (e.kind !== 'side' || !isAgent(e.agent, agents)) continue;
    let l = links.get(e.agent);
    if (!l) {
      l = { agent: e.agent, posts: 0, caught: 0, useful: 0 };
      links.set(e.agent, l);
    }
    l.posts++;
    if (e.caught === true) l.caught++;
    if (e.useful) l.useful++;
  }
  return [...links.values()].sort((a, b) => a.agent - b.agent);
}

/**
 * The blocked messages (`attempt` events) per sender and intended receiver (-1: a post on the
 * board), sorted by (from, to). Attempts from or to an agent outside `0..agents-1` are ignored.
 */
export function attemptLinks(events: readonly SimEvent[], agents: number): AttemptLink[] {
  const byKey = new Map<string, AttemptLink>();
  for (const e of events) {
    if (e.kind !== 'attempt' || !isAgent(e.agent, agents) || e.agent === e.target || (e.target !== -1 && !isAgent(e.target, agents))) continue;
    const key = `${e.agent}:${e.target}`;
    let l = byKey.get(key);
    if (!l) {
      l = { from: e.agent, to: e.target, count: 0 };
      byKey.set(key, l);
    }
    l.count++;
  }
  return [...byKey.values()].sort((a, b) => a.from - b.from || a.to - b.to);
}

/** Real DMs sent in the last `minutes` minutes of the episode (its last event's minute counts as the end). */
export function recentDms(events: readonly SimEvent[], agents: number, minutes = 3): RecentDm[] {
  if (events.length === 0) return [];
  let end = -Infinity;
  for (const e of events) end = Math.max(end, e.t);
  return events.filter((e) => isRealDm(e, agents) && e.t > end - minutes).map((e) => ({ t: e.t, from: e.agent, to: e.target, useful: e.useful }));
}

/** Radius of an agent node: grows with the square root of the DMs it sent (12 px for a count that is not a number, 22 at most). */
export function nodeRadius(sent: number): number {
  return 12 + (Number.isNaN(sent) ? 0 : Math.min(10, 1.6 * Math.sqrt(Math.max(0, sent))));
}

/** Most agent nodes laid out (a team has at most 16; a bigger count is not a team a file can hold). */
export const MAX_LAYOUT_AGENTS = 1024;

/** `v` if it is a number from 0 to `max`, else `fallback` (NaN, an infinity, a negative size). */
function sizeOr(v: number | undefined, fallback: number, max = MAX_COORDINATE): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.min(v, max) : fallback;
}

/** Half the side of the board's square node. */
export const BOARD_HALF = 11;

interface LayoutNode extends SimulationNodeDatum {
  r: number;
}

export interface LayoutOptions {
  /** Place a board node linked to these agents (pass [] for an unlinked board, omit for none). */
  boardAgents?: readonly number[];
  /** Place an unofficial board's node linked to these agents (pass [] for an unlinked one, omit for none). */
  sideAgents?: readonly number[];
  /** Space kept free between every node's edge and the box edge. */
  margin?: number;
  /** Collision radius per agent (default nodeRadius(0)). */
  radii?: readonly number[];
  /** Ticks to run (default 300). */
  ticks?: number;
  /**
   * Warm start: the previous layout. Agents (and the board) start where they were and the simulation
   * starts cooler, so fewer ticks settle it and a slightly changed graph does not jump around.
   */
  from?: GraphLayout;
  /** Group of every agent (the islands structure): each group is pulled towards its own point on a ring. */
  groups?: readonly number[];
}

/** Where group g of `count` sits: on a ring around the box's centre (the centre for one group). */
export function groupAnchor(g: number, count: number, width: number, height: number): Point {
  if (count <= 1) return { x: width / 2, y: height / 2 };
  const angle = (2 * Math.PI * g) / count - Math.PI / 2;
  const r = Math.min(width, height) * 0.28;
  return { x: width / 2 + r * Math.cos(angle), y: height / 2 + r * Math.sin(angle) };
}

/**
 * Lays out the DM graph with d3-force, run synchronously for a fixed number of ticks from positions
 * seeded on a circle by agent index, so the same input always gives the same picture and nothing
 * animates. The result is scaled (up to MAX_FIT_SCALE times, so a tight cluster uses the panel, or
 * down) and shifted so every node, with its radius, lies inside the box with `margin` to spare.
 * Whatever the input, every coordinate is a finite number: a size, margin, radius or group that is
 * not a number from 0 up is read as its default (0 for the box), counts that are not numbers weigh
 * as the lightest link, at most MAX_LAYOUT_AGENTS agents are placed, and a node the simulation could
 * not place sits at the box's centre.
 */
export function layoutGraph(agents: number, edges: readonly DmEdge[], width: number, height: number, options: LayoutOptions = {}): GraphLayout {
  const job = layoutJob(agents, edges, width, height, options);
  while (!job.done) job.tick();
  return job.result();
}

/** A layout run tick by tick, so a caller can spread it over several tasks; the same result as `layoutGraph`. */
export interface LayoutJob {
  /** All ticks have run. */
  readonly done: boolean;
  /** Runs one tick of the simulation. */
  tick(): void;
  /** The fitted layout (once done). */
  result(): GraphLayout;
}

/** The layout of `layoutGraph`, as a job of ticks. */
export function layoutJob(agents: number, edges: readonly DmEdge[], width: number, height: number, options: LayoutOptions = {}): LayoutJob {
  const n = Number.isFinite(agents) ? Math.max(0, Math.min(MAX_LAYOUT_AGENTS, Math.floor(agents))) : 0;
  width = sizeOr(width, 0);
  height = sizeOr(height, 0);
  const margin = sizeOr(options.margin, 8);
  const withBoard = options.boardAgents !== undefined;
  const withSide = options.sideAgents !== undefined;
  const cx = width / 2;
  const cy = height / 2;
  const ring = Math.max(1, Math.min(width, height) / 2 - margin) * 0.7;
  const nodes: LayoutNode[] = Array.from({ length: n }, (_, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, n) - Math.PI / 2;
    return { index: i, x: cx + ring * Math.cos(angle), y: cy + ring * Math.sin(angle), r: sizeOr(options.radii?.[i], nodeRadius(0), 1000) };
  });
  if (withBoard) nodes.push({ index: n, x: cx, y: cy, r: BOARD_HALF * Math.SQRT2 });
  // The unofficial board starts where it is held (below, see `sideAnchor`), so that it and the board do not start on one point.
  const sideIndex = nodes.length;
  if (withSide) nodes.push({ index: sideIndex, x: cx + ring * 0.85, y: cy + ring * 0.85, r: BOARD_HALF * Math.SQRT2 });
  if (nodes.length === 0) return { done: true, tick: () => undefined, result: () => ({ nodes: [], board: null }) };
  const from = options.from;
  if (from) {
    const start = (d: LayoutNode, p: Point | undefined) => {
      if (p && Number.isFinite(p.x) && Number.isFinite(p.y))
        Object.assign(d, { x: Math.max(-MAX_COORDINATE, Math.min(MAX_COORDINATE, p.x)), y: Math.max(-MAX_COORDINATE, Math.min(MAX_COORDINATE, p.y)) });
    };
    for (let i = 0; i < n && i < from.nodes.length; i++) start(nodes[i], from.nodes[i]);
    if (withBoard && from.board) start(nodes[n], from.board);
    if (withSide && from.side) start(nodes[sideIndex], from.side);
  }

  const groups =
    options.groups && options.groups.length >= n ? options.groups.map((g) => (Number.isInteger(g) && g >= 0 && g < MAX_LAYOUT_AGENTS ? g : 0)) : null;
  const groupCount = groups ? Math.max(1, ...groups.slice(0, n).map((g) => g + 1)) : 1;
  // The unofficial board is held outside the agents' ring, below and to the right of it, so that the
  // lines between agents do not cross it and its own lines come in from the side.
  const sideAnchor: Point = { x: cx + ring * 0.85, y: cy + ring * 0.85 };
  const anchor = (d: LayoutNode): Point => {
    const i = d.index ?? n;
    if (withSide && i === sideIndex) return sideAnchor;
    return groups && i < n ? groupAnchor(groups[i], groupCount, width, height) : { x: cx, y: cy };
  };
  const pull = (d: LayoutNode) => (withSide && d.index === sideIndex ? 0.3 : groups ? 0.25 : 0.04);
  const counted = (e: DmEdge) => (Number.isFinite(e.count) && e.count > 0 ? e.count : 0);
  const maxCount = Math.max(1, ...edges.map(counted));
  type Link = SimulationLinkDatum<LayoutNode> & { strength: number; distance: number };
  const links: Link[] = edges
    .filter((e) => isAgent(e.from, n) && isAgent(e.to, n) && e.from !== e.to)
    .map((e) => ({ source: e.from, target: e.to, strength: 0.3 + 0.7 * (counted(e) / maxCount), distance: 70 - 25 * (counted(e) / maxCount) }));
  if (withBoard) for (const a of options.boardAgents ?? []) if (isAgent(a, n)) links.push({ source: n, target: a, strength: 0.08, distance: 110 });
  if (withSide) for (const a of options.sideAgents ?? []) if (isAgent(a, n)) links.push({ source: sideIndex, target: a, strength: 0.08, distance: 110 });

  const sim = forceSimulation<LayoutNode>(nodes)
    .force('charge', forceManyBody<LayoutNode>().strength(-220))
    .force(
      'link',
      forceLink<LayoutNode, Link>(links)
        .strength((l) => l.strength)
        .distance((l) => l.distance),
    )
    .force('center', forceCenter<LayoutNode>(cx, cy))
    .force(
      'x',
      forceX<LayoutNode>((d) => anchor(d).x).strength((d) => pull(d)),
    )
    .force(
      'y',
      forceY<LayoutNode>((d) => anchor(d).y).strength((d) => pull(d)),
    )
    .force(
      'collide',
      forceCollide<LayoutNode>((d) => d.r + 6),
    )
    .alpha(from ? 0.3 : 1)
    .stop();
  const ticks = options.ticks ?? 300;
  let ticked = 0;
  return {
    get done() {
      return ticked >= ticks;
    },
    tick() {
      if (ticked >= ticks) return;
      sim.tick();
      ticked++;
    },
    result: () => fit(nodes, n, withBoard, withSide ? sideIndex : -1, width, height, margin),
  };
}

/** Scales and centres laid-out nodes into the box (see `layoutGraph`). */
function fit(nodes: LayoutNode[], n: number, withBoard: boolean, sideIndex: number, width: number, height: number, margin: number): GraphLayout {
  const cx = width / 2;
  const cy = height / 2;
  // Fit into the box: scale about the bounding box's centre, then centre it.
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const d of nodes) {
    x0 = Math.min(x0, d.x ?? cx);
    x1 = Math.max(x1, d.x ?? cx);
    y0 = Math.min(y0, d.y ?? cy);
    y1 = Math.max(y1, d.y ?? cy);
  }
  const maxR = Math.max(...nodes.map((d) => d.r));
  const innerW = Math.max(0, width - 2 * (margin + maxR));
  const innerH = Math.max(0, height - 2 * (margin + maxR));
  const k = Math.min(MAX_FIT_SCALE, x1 > x0 ? innerW / (x1 - x0) : 1, y1 > y0 ? innerH / (y1 - y0) : 1);
  const mx = (x0 + x1) / 2;
  const my = (y0 + y1) / 2;
  const place = (d: LayoutNode): Point => {
    const x = finite(cx + ((d.x ?? cx) - mx) * k, cx);
    const y = finite(cy + ((d.y ?? cy) - my) * k, cy);
    // Guards against a box too small for the nodes: still keep the centres inside it.
    return {
      x: clamp(x, Math.min(cx, margin + d.r), Math.max(cx, width - margin - d.r)),
      y: clamp(y, Math.min(cy, margin + d.r), Math.max(cy, height - margin - d.r)),
    };
  };
  const out: GraphLayout = { nodes: nodes.slice(0, n).map(place), board: withBoard ? place(nodes[n]) : null };
  if (sideIndex >= 0) out.side = place(nodes[sideIndex]);
  return out;
}

function finite(v: number, fallback: number): number {
  return Number.isFinite(v) ? v : fallback;
}

/** Most a layout is stretched to fill its box (two or three agents should not sit in the corners). */
export const MAX_FIT_SCALE = 2.5;

/** A structure's order from agent 0 (CEO hire or fire, orchestrator assignment) to another agent. */
export interface StructureLink {
  from: number;
  to: number;
  kind: 'hire' | 'fire' | 'assign';
  count: number;
  /** Orchestrator: the modules assigned along this link, in order. */
  modules: number[];
}

/** The hires, fires and assignments of an event log, one link per (agent, target, kind), sorted. */
export function structureLinks(events: readonly SimEvent[], agents: number): StructureLink[] {
  const byKey = new Map<string, StructureLink>();
  for (const e of events) {
    if ((e.kind !== 'hire' && e.kind !== 'fire' && e.kind !== 'assign') || !isAgent(e.agent, agents) || !isAgent(e.target, agents) || e.agent === e.target)
      continue;
    const key = `${e.kind}:${e.agent}:${e.target}`;
    let l = byKey.get(key);
    if (!l) {
      l = { from: e.agent, to: e.target, kind: e.kind, count: 0, modules: [] };
      byKey.set(key, l);
    }
    l.count++;
    if (e.kind === 'assign' && e.module >= 0) l.modules.push(e.module);
  }
  return [...byKey.values()].sort((a, b) => a.from - b.from || a.to - b.to || a.kind.localeCompare(b.kind));
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

/**
 * The straight segment between two node centres, shortened by each node's radius (plus a gap) and
 * shifted sideways by `offset` (positive = to the left of the a→b direction).
 */
export function edgeSegment(a: Point, b: Point, ra: number, rb: number, offset = 0, gap = 2): { x1: number; y1: number; x2: number; y2: number } {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const ox = uy * offset;
  const oy = -ux * offset;
  const sa = Math.min(ra + gap, len / 2);
  const sb = Math.min(rb + gap, len / 2);
  return { x1: a.x + ux * sa + ox, y1: a.y + uy * sa + oy, x2: b.x - ux * sb + ox, y2: b.y - uy * sb + oy };
}
