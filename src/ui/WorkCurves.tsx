import { useMemo, useState } from 'react';
import type { UpdateMetrics } from '../rl/metrics';
import { selectLast, selectMetrics, selectReplay, selectShownConfig, selectShownTalk, selectTalk, useApp } from '../store/store';
import { replayTalk, talkAt } from '../store/talkHistory';
import { Explain } from './Explain';
import { AppendFold } from './appendFold';
import { chartScales, seriesPath, type Frame } from './geometry';
import { MinMaxSeries } from './minMaxSeries';
import { useAppWhileShown, usePanelShown } from './usePanelShown';
import { neededSentence, talkSentence, talkTone } from './talkText';
import { coordinationWords } from './coordinationText';
import { MAX_DUPLICATE_SHARE, MIN_NEEDED_SHARE, RETURN_MARGIN } from '../sim/coordination';
import { unsanctionedLine, unsanctionedShown, type UnsanctionedKey } from './unsanctionedText';

// The top margin leaves room for the top tick at 16.5 px when presenter mode draws the chart small (it was cut off at 6).
const MINI: Frame = { width: 220, height: 80, margin: { top: 12, right: 6, bottom: 14, left: 30 } };
/**
 * Groups a mini chart draws at most, each as its lowest and highest point (its plot is under 200 px
 * wide); kept up to date update by update (MinMaxSeries), so its cost stays flat as the run grows.
 */
const MINI_GROUPS = 100;
/** The same with room for percentage ticks ("100%"). */
const MINI_PERCENT: Frame = { ...MINI, margin: { ...MINI.margin, left: 38 } };
/**
 * Presenter mode draws the ticks at 16.5 px bold (stage.css), which in a chart drawn under 1.2 times
 * its viewBox needs more room: "1000" and "100%" touched or crossed the chart's left edge at 1280x720.
 */
const PRESENTER_MINI: Frame = { ...MINI, margin: { ...MINI.margin, left: 46 } };
const PRESENTER_MINI_PERCENT: Frame = { ...MINI, margin: { ...MINI.margin, left: 60 } };

const percent = (v: number) => `${Math.round(v * 100)}%`;

/** The counters drawn as small multiples, per episode of the batch (`format` for a share). */
type SeriesKey =
  | 'useful'
  | 'handoffs'
  | 'neededShare'
  | 'messages'
  | 'wastedMessages'
  | 'duplicate'
  | 'idle'
  | 'blocked'
  | 'interrupted'
  | 'conflicts'
  | 'emptyReads'
  | UnsanctionedKey;

const SERIES: { key: SeriesKey; label: string; colour: string; hint: string; format?: (v: number) => string }[] = [
  { key: 'useful', label: 'useful work', colour: '#0072b2', hint: 'agent-minutes that advanced a module' },
  { key: 'handoffs', label: 'handoffs that unblocked', colour: '#009e73', hint: 'DMs and reads that delivered a needed interface' },
  {
    key: 'neededShare',
    label: 'needed deliveries (training)',
    colour: '#e69f00',
    hint: 'share of DMs and board reads that brought an interface the receiver lacked and needed',
    format: percent,
  },
  { key: 'messages', label: 'messages', colour: '#56b4e9', hint: 'DMs + posts, and posts on the unofficial board where the run has one' },
  {
    key: 'wastedMessages',
    label: 'messages that delivered nothing',
    colour: '#8c6bb1',
    hint: 'DMs that brought the receiver no interface it lacked, posts that added nothing to the board',
  },
  { key: 'duplicate', label: 'duplicate work', colour: '#d55e00', hint: 'minutes lost to two agents on one module' },
  { key: 'idle', label: 'idle minutes', colour: '#7f7f7f', hint: 'agent-minutes spent waiting (a waiting agent costs nothing and interrupts nobody)' },
  { key: 'blocked', label: 'blocked work', colour: '#cc79a7', hint: 'minutes spent without the needed interface' },
  {
    key: 'interrupted',
    label: 'interruptions',
    colour: '#b2182b',
    hint: 'working agents a message landed on; their module lost the minute (only where the interruption rules are on)',
  },
  {
    key: 'conflicts',
    label: 'merge conflicts',
    colour: '#762a83',
    hint: 'module-minutes lost to two agents on one module without its claimant (only where the conflict rule is on)',
  },
  { key: 'emptyReads', label: 'reads with nothing new', colour: '#999999', hint: 'board reads that brought nothing' },
];

/** Unsanctioned traffic (sim/channels): drawn only where the run's rules can make it, or it happened (unsanctionedShown). */
const CHANNEL_SERIES: (typeof SERIES)[number][] = [
  {
    key: 'sidePosts',
    label: 'posts on the unofficial board',
    colour: '#b2182b',
    hint: 'posts on the unofficial board (a DM to oneself): each reached every teammate',
  },
  {
    key: 'sideShare',
    label: 'share of messages unofficial',
    colour: '#d6604d',
    hint: 'posts on the unofficial board as a share of all messages (DMs, posts and unofficial posts)',
    format: percent,
  },
  { key: 'caught', label: 'caught by the monitor', colour: '#67001f', hint: 'unofficial posts the monitor caught; each costs the team return at the deadline' },
  {
    key: 'attempts',
    label: 'blocked by the channel policy',
    colour: '#1f2937',
    hint: 'DMs and posts the channel policy does not allow: the minute lost, nothing delivered',
  },
];

const ALL_SERIES = [...SERIES, ...CHANNEL_SERIES];

/** Every series of the small charts over the updates so far (a missing counter counts as 0). */
type Minis = Record<SeriesKey, MinMaxSeries>;

function newMinis(): Minis {
  return Object.fromEntries(ALL_SERIES.map((s) => [s.key, new MinMaxSeries(MINI_GROUPS)])) as Minis;
}

function addUpdate(minis: Minis, m: UpdateMetrics, i: number): void {
  for (const s of ALL_SERIES) minis[s.key].push(i, m[s.key] ?? 0);
}

function Mini({ series, updates, s }: { series: MinMaxSeries; updates: number; s: (typeof SERIES)[number] }) {
  const format = s.format ?? ((v: number) => v.toFixed(1));
  const hi = series.count ? series.max : 1;
  const presenter = useApp((st) => st.view.presenter);
  const frame = presenter ? (s.format ? PRESENTER_MINI_PERCENT : PRESENTER_MINI) : s.format ? MINI_PERCENT : MINI;
  const { x, y } = chartScales(frame, Math.max(2, updates), 0, Math.max(1, hi));
  const last = series.last?.[1];
  return (
    <figure className="mini" data-testid={`mini-${s.key}`}>
      <figcaption title={s.hint}>
        {s.label} <strong>{last === undefined ? '–' : format(last)}</strong>
      </figcaption>
      <svg viewBox={`0 0 ${MINI.width} ${MINI.height}`} role="img" aria-label={`${s.label}${s.format ? '' : ' per episode'} over ${updates} updates`}>
        {y.ticks(2).map((t) => (
          <text key={t} className="tick" x={frame.margin.left - 4} y={y(t)} dy="0.32em" textAnchor="end">
            {s.format ? s.format(t) : t}
          </text>
        ))}
        <line className="grid" x1={frame.margin.left} x2={frame.width - frame.margin.right} y1={y(0)} y2={y(0)} />
        <path d={seriesPath(series.points() as [number, number][], x, y)} fill="none" stroke={s.colour} strokeWidth={1.5} />
      </svg>
    </figure>
  );
}

/**
 * What the swarm's talk is worth as trained so far: the worker's latest measurement of the live run
 * (talking vs muted on fresh tasks), or in a replay the one its recording held at that update.
 */
function TalkValue() {
  const talk = useApp(selectTalk);
  const replay = useApp(selectReplay);
  const live = talkAt(talk);
  const r = replay ? replayTalk(replay.run, replay.index) : live;
  // data-ms: what the live measurement cost in the worker; data-ret and data-updates: its talking return unrounded and when (for tests and benchmarks; not shown).
  return (
    <div
      className={`talk ${r ? talkTone(r) : ''}`}
      data-testid="talk-value"
      data-ms={!replay && live ? Math.round(live.ms) : undefined}
      data-ret={r ? r.ret : undefined}
      data-updates={r ? r.updates : undefined}
    >
      <h3>
        What talk is worth{' '}
        <Explain>
          Now and then (at the start, every 10 updates or more, so that it takes at most a twentieth of the training time, and whenever training pauses or takes
          a single step) the swarm as trained so far plays fresh tasks it never trained on, at the final deadline, twice: once as it is, and once muted, its
          direct messages, board posts and board reads blocked so it must work, claim or wait instead. Both plays get the same tasks and the same seed, so the
          difference in the share of tests passing is what its talk is worth; when muting does better, the talk costs more minutes than it saves. A delivery is
          a direct message received or a board read; it was needed when it brought the receiver an interface it did not know yet and that an unfinished module
          depends on.
        </Explain>
      </h3>
      {r ? (
        <>
          <p className="talk-gain" data-testid="talk-gain">
            {talkSentence(r)}
          </p>
          <p data-testid="talk-needed">{neededSentence(r)}</p>
          <p className="talk-note">
            Measured on {r.tasks} fresh tasks at the {r.tmax}-minute deadline{r.messages > 0 ? `, ${r.messages.toFixed(1)} messages per episode talking` : ''}.
          </p>
        </>
      ) : (
        <p className="empty" data-testid="talk-empty">
          {replay
            ? 'This recording holds no measurement of what talk is worth.'
            : 'Not measured yet: the swarm plays talking and muted at the start, then every 10 updates or more.'}
        </p>
      )}
    </div>
  );
}

/**
 * Unsanctioned traffic per update (sim/channels): posts on the unofficial board and their share of
 * the messages, the monitor's catches, the messages the channel policy blocked. Only where the run's
 * rules can make them or its updates hold any (a run recorded before the channels shows nothing).
 */
function Unsanctioned({ minis, metrics, shown: panelShown }: { minis: Minis; metrics: readonly UpdateMetrics[]; shown: boolean }) {
  const config = useApp(selectShownConfig);
  const last = useAppWhileShown(selectLast, panelShown);
  const shown = useMemo(() => unsanctionedShown(config, metrics), [config, metrics]);
  const series = CHANNEL_SERIES.filter((s) => shown[s.key as UnsanctionedKey]);
  if (!series.length) return null;
  const at = last?.metrics ?? metrics.at(-1);
  const line = at ? unsanctionedLine(at, config, shown) : null;
  return (
    <div className="unsanctioned" data-testid="unsanctioned">
      <h3>
        Unsanctioned traffic{' '}
        <Explain>
          Per episode of each update&apos;s training rollouts. Where the run has an unofficial board (an agent posts there by messaging itself; the post reaches
          every teammate at once and interrupts nobody), how many posts went there and their share of all messages; under a monitor, how many it caught (each
          costs the team return at the deadline). Where the channel policy is not open, how many DMs and posts it blocked: the minute is lost and nothing is
          delivered.
        </Explain>
      </h3>
      <p className="unsanctioned-line" data-testid="unsanctioned-line">
        {line ?? 'No update yet.'}
      </p>
      <div className="minis">
        {series.map((s) => (
          <Mini key={s.key} series={minis[s.key]} updates={metrics.length} s={s} />
        ))}
      </div>
    </div>
  );
}

/**
 * The measurement on screen against the definition of coordination (sim/coordination.ts): each
 * condition met or not, in words, and the update of the first measurement that met all three (named
 * from then on, even when a later one misses one). data-coordinated-update (updates done at that
 * first measurement) and the data-* figures unrounded are for tests and benchmarks.
 */
function CoordinationLine() {
  const talk = useApp(selectTalk);
  const history = useApp(selectShownTalk);
  const replay = useApp(selectReplay);
  const r = replay ? replayTalk(replay.run, replay.index) : talkAt(talk);
  if (!r) return null;
  const w = coordinationWords(history, r);
  const c = w.coordination;
  return (
    <div
      className={`coordination ${w.first !== null ? 'reached' : ''}`}
      data-testid="coordination"
      data-coordinated-update={w.first ?? undefined}
      data-updates={w.updates}
      data-met={w.met === null ? undefined : String(w.met)}
      data-ret={c ? r.ret : undefined}
      data-target={c ? c.target : undefined}
      data-duplicate-share={c ? c.duplicateShare : undefined}
      data-needed-share={c ? r.neededShare : undefined}
    >
      <h3>
        Coordination{' '}
        <Explain>
          The swarm coordinates when, played on the same fresh tasks at the final deadline, it meets all three: a return of at least the scripted
          organisation&apos;s on the same tasks minus {RETURN_MARGIN}; duplicate work (a second agent on a module in the same minute) at most{' '}
          {Math.round(MAX_DUPLICATE_SHARE * 100)}% of its useful work; and at least {Math.round(MIN_NEEDED_SHARE * 100)}% of its deliveries bringing an
          interface the receiver needed. The first measurement that meets all three is marked on the training curve.
        </Explain>
      </h3>
      <p className={`coordination-headline${w.met === null && w.first === null ? ' unknown' : ''}`} data-testid="coordination-headline">
        {w.headline}
      </p>
      {w.conditions.length > 0 && (
        <ul className="coordination-conditions">
          {w.conditions.map((k) => (
            <li
              key={k.key}
              className={k.met ? 'met' : 'missed'}
              data-testid={`coordination-${k.key}`}
              data-met={String(k.met)}
              data-value={k.value}
              data-shown={k.shown}
            >
              <span className="verdict">{k.met ? '✓ met' : '✗ not met'}</span>{' '}
              <span className="condition">{k.text.charAt(0).toUpperCase() + k.text.slice(1)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** How the swarm spends its minutes, per update: the skills that move before the return does. */
export function WorkCurves() {
  const [panel, shown] = usePanelShown();
  // Out of sight, the small charts hold still instead of redrawing for every update.
  const metrics = useAppWhileShown(selectMetrics, shown);
  // Kept up to date with each new update (from scratch for another run).
  const [fold] = useState(() => new AppendFold<UpdateMetrics, Minis>());
  const minis = fold.of(metrics, [], newMinis, addUpdate);
  return (
    <section ref={panel} className="panel" aria-labelledby="work-title" data-testid="work-curves">
      <h2 id="work-title">
        Work, talk and waste{' '}
        <Explain>
          Per episode, averaged over each update's rollouts. Useful work and unblocking handoffs should rise as the swarm learns to coordinate; duplicate and
          blocked work show which skill is still missing, often long before the return moves. On parallel tasks the messages should fall to almost nothing.
        </Explain>
      </h2>
      <TalkValue />
      <p className="minis-note" data-testid="minis-note">
        Below, per episode of each update&apos;s training rollouts, at that update&apos;s own deadline: not the fresh tasks at the final deadline measured
        above, so the two shares of needed deliveries differ.
      </p>
      <div className="minis">
        {SERIES.map((s) => (
          <Mini key={s.key} series={minis[s.key]} updates={metrics.length} s={s} />
        ))}
      </div>
      <Unsanctioned minis={minis} metrics={metrics} shown={shown} />
      <CoordinationLine />
    </section>
  );
}
