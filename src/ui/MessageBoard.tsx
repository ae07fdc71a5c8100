import { memo, useMemo } from 'react';
import { selectConfig, selectSelectedAgent, useApp } from '../store/store';
import { Explain } from './Explain';
import { feedRows, rowsForAgent, type FeedRow } from './feed';
import { SelectField } from './Fields';
import { useFrame } from './usePlayback';
import './board.css';

const ALL = 'all';

/** One line of the feed; rows keep their identity through an episode, so a new minute renders only its own lines. */
const Row = memo(function Row({ r }: { r: FeedRow }) {
  return (
    <li className={`board-row board-${r.kind}${r.useful ? ' useful' : ''}`}>
      <span className="board-stamp">{r.stamp}</span>
      <span className="board-author">
        {/* Agents are numbered badges, not colours: colours in the swimlanes mean actions. */}
        agent <span className="agent-badge">{r.agent}</span>
      </span>
      <span className="board-text">{r.text}</span>
    </li>
  );
});

/** The showcase rollout's public board and DMs as a feed: who posted, read, claimed and handed over what, minute by minute. */
export function MessageBoard() {
  const frame = useFrame(1); // shown 1 frame after the first episode appears (useStaggeredStart)
  const last = frame?.episode ?? null;
  const config = useApp(selectConfig);
  const selected = useApp(selectSelectedAgent);
  const select = useApp((s) => s.selectAgent);
  const all = useMemo(() => (last ? feedRows(last.events) : []), [last]);
  const tick = frame?.tick ?? 0;
  const rows = useMemo(() => all.filter((r) => r.t < tick), [all, tick]);

  const agents = Math.max(1, config.agents, selected === null ? 0 : selected + 1, ...(last ? last.events.map((e) => e.agent + 1) : []));
  const options = [ALL, ...Array.from({ length: agents }, (_, a) => String(a))];
  const labels: Record<string, string> = { [ALL]: 'all agents' };
  for (let a = 0; a < agents; a++) labels[a] = `agent ${a}`;
  const shown = rowsForAgent(rows, selected);

  return (
    <section className="panel board" aria-labelledby="board-title" data-testid="message-board">
      <h2 id="board-title">
        Message board{' '}
        <Explain>
          Posts put interfaces on the public board, reads take them in; claims mark a module as someone's job. A trained swarm posts right after finishing a
          module others need, and those agents read it the next minute.
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
      ) : (
        <div
          className="board-feed"
          role="log"
          aria-live="off"
          aria-label="Messages of the showcase rollout up to the playback clock, oldest first"
          data-testid="board-feed"
          tabIndex={0}
        >
          <ol className="board-list">
            {shown.length === 0 && (
              <li className="board-none">
                {selected === null
                  ? 'No posts, reads, claims or messages so far in this rollout.'
                  : `Agent ${selected} sent, read and claimed nothing so far in this rollout.`}
              </li>
            )}
            {shown.map((r) => (
              <Row key={r.key} r={r} />
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
