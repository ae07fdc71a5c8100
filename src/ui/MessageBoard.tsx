import { memo, useMemo } from 'react';
import { download } from '../app/runLibrary';
import { selectConfig, selectSelectedAgent, selectShownConfig, useApp } from '../store/store';
import type { UpdateMessage } from '../worker/protocol';
import { auditFile, auditSummary, episodeAudit, type AuditFormat } from './auditExport';
import { Explain } from './Explain';
import { feedRows, rowsForAgent, splitSide, type FeedRow } from './feed';
import { SelectField } from './Fields';
import { useFrame } from './usePlayback';
import './board.css';

const ALL = 'all';

/** One line of the feed; rows keep their identity through an episode, so a new minute renders only its own lines. */
const Row = memo(function Row({ r }: { r: FeedRow }) {
  return (
    <li className={`board-row board-${r.kind}${r.useful ? ' useful' : ''}${r.caught ? ' caught' : ''}`}>
      <span className="board-stamp">{r.stamp}</span>
      <span className="board-author">
        {/* Agents are numbered badges, not colours: colours in the swimlanes mean actions. */}
        agent <span className="agent-badge">{r.agent}</span>
      </span>
      <span className="board-text">
        {r.kind === 'attempt' && <span className="board-tag blocked">blocked</span>}
        {r.caught && <span className="board-tag caught">caught</span>}
        {r.text}
      </span>
    </li>
  );
});

/** One scrolling feed: the newest line stays in view. */
function Feed({ rows, label, testId, none }: { rows: readonly FeedRow[]; label: string; testId: string; none: string }) {
  return (
    <div className="board-feed" role="log" aria-live="off" aria-label={label} data-testid={testId} tabIndex={0}>
      <ol className="board-list">
        {rows.length === 0 && <li className="board-none">{none}</li>}
        {rows.map((r) => (
          <Row key={r.key} r={r} />
        ))}
      </ol>
    </div>
  );
}

/**
 * The showcase episode's audit log (sim/audit.ts), whole, as CSV or JSON Lines: every message and
 * every blocked attempt, with what it carried and whether it was allowed, unofficial, caught or blocked.
 */
function AuditExport({ episode }: { episode: UpdateMessage }) {
  const audit = useMemo(() => episodeAudit(episode.events), [episode]);
  const update = episode.metrics.update;
  const save = (format: AuditFormat) => {
    const f = auditFile(audit.rows, update, format);
    download(new Blob([f.text], { type: f.type }), f.name);
  };
  const summary = auditSummary(audit.counts);
  return (
    <div
      className="audit-export"
      data-testid="audit-export"
      data-rows={audit.rows.length}
      data-allowed={audit.counts.allowed}
      data-unofficial={audit.counts.unsanctioned + audit.counts.caught}
      data-caught={audit.counts.caught}
      data-blocked={audit.counts.blocked}
    >
      <span className="audit-label" title={`The audit log of this rollout (update ${update + 1}), the whole episode: ${summary}`}>
        Audit log{' '}
        <span data-testid="audit-summary">
          ({audit.rows.length} {audit.rows.length === 1 ? 'row' : 'rows'}
          <span className="audit-detail">{summary.slice(summary.indexOf(':'))}</span>)
        </span>
      </span>
      <button type="button" onClick={() => save('csv')} data-testid="audit-csv" aria-label={`Download the audit log of update ${update + 1} as CSV`}>
        CSV
      </button>
      <button type="button" onClick={() => save('jsonl')} data-testid="audit-jsonl" aria-label={`Download the audit log of update ${update + 1} as JSON Lines`}>
        JSONL
      </button>
    </div>
  );
}

/**
 * The showcase rollout's public board and DMs as a feed: who posted, read, claimed and handed over
 * what, minute by minute, and the messages the channel policy blocked; where the run has an
 * unofficial board, its posts in a column beside it.
 */
export function MessageBoard() {
  const frame = useFrame(1); // shown 1 frame after the first episode appears (useStaggeredStart)
  const last = frame?.episode ?? null;
  const config = useApp(selectConfig);
  const shownConfig = useApp(selectShownConfig);
  const selected = useApp(selectSelectedAgent);
  const select = useApp((s) => s.selectAgent);
  const all = useMemo(() => (last ? feedRows(last.events) : []), [last]);
  const tick = frame?.tick ?? 0;
  const rows = useMemo(() => all.filter((r) => r.t < tick), [all, tick]);
  // The unofficial board's column: where the run has one, or its episode posted there (a file's settings may say less).
  const withSide = (shownConfig.sideBoard ?? 'off') !== 'off' || all.some((r) => r.kind === 'side');

  const agents = Math.max(1, config.agents, selected === null ? 0 : selected + 1, ...(last ? last.events.map((e) => e.agent + 1) : []));
  const options = [ALL, ...Array.from({ length: agents }, (_, a) => String(a))];
  const labels: Record<string, string> = { [ALL]: 'all agents' };
  for (let a = 0; a < agents; a++) labels[a] = `agent ${a}`;
  const { sanctioned, side } = splitSide(rowsForAgent(rows, selected));
  const none =
    selected === null
      ? 'No posts, reads, claims or messages so far in this rollout.'
      : `Agent ${selected} sent, read and claimed nothing so far in this rollout.`;
  const label = 'Messages of the showcase rollout up to the playback clock, oldest first';

  return (
    <section className="panel board" aria-labelledby="board-title" data-testid="message-board">
      <h2 id="board-title">
        Message board{' '}
        <Explain>
          Posts put interfaces on the public board, reads take them in; claims mark a module as someone&apos;s job. A trained swarm posts right after finishing
          a module others need, and those agents read it the next minute. A message the channel policy does not allow is listed as blocked: its minute was spent
          and nothing was delivered. Where the run has an unofficial board, its posts (an agent messaging itself) are listed beside the public board: each
          reached every teammate at once, and under a monitor some are caught, each costing the team return at the deadline. The audit log downloads every
          message and blocked attempt of the whole rollout.
        </Explain>
      </h2>
      <SelectField
        label="show"
        value={selected === null ? ALL : String(selected)}
        options={options}
        labels={labels}
        testId="board-filter"
        onChange={(v) => select(v === ALL ? null : Number(v))}
      />
      {!last ? (
        <p className="empty">Start training to see what the agents tell each other.</p>
      ) : withSide ? (
        <div className="board-columns" data-testid="board-columns">
          <div className="board-column">
            <h3>Public board and messages</h3>
            <Feed rows={sanctioned} label={label} testId="board-feed" none={none} />
          </div>
          <div className="board-column side">
            <h3>Unofficial board</h3>
            <Feed
              rows={side}
              label="Posts on the unofficial board up to the playback clock, oldest first"
              testId="side-feed"
              none={selected === null ? 'Nothing posted on the unofficial board so far.' : `Agent ${selected} posted nothing on the unofficial board so far.`}
            />
          </div>
        </div>
      ) : (
        <Feed rows={sanctioned} label={label} testId="board-feed" none={none} />
      )}
      {last && <AuditExport episode={last} />}
    </section>
  );
}
