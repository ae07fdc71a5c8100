import { scaleLinear } from 'd3';
import { Explain } from './Explain';
import { moduleProgress } from './feed';
import { useFrame } from './usePlayback';

/** One bar per module of the showcase task: its tests, and how many pass at the end of the episode. */
export function ModuleBars() {
  const frame = useFrame(4); // shown 4 frames after the first episode appears (useStaggeredStart)
  if (!frame) return null;
  const last = frame.episode;
  // Islands play their own task variants: the bars show island 0's, the showcase task.
  const islandOf = last.structure?.islandOf;
  const events = islandOf ? frame.events.filter((e) => islandOf[e.agent] === 0) : frame.events;
  const progress = moduleProgress(events, last.modules);
  const maxTests = Math.max(1, ...last.modules.map((m) => m.tests));
  const width = 640;
  const rowH = 16;
  const left = 150;
  const x = scaleLinear()
    .domain([0, maxTests])
    .range([0, width - left - 60]);
  const height = last.modules.length * rowH + 4;
  return (
    <section className="panel" aria-labelledby="modules-title" data-testid="module-bars">
      <h2 id="modules-title">
        Modules and tests{islandOf ? ' (island 0)' : ''}{' '}
        <Explain>
          Each bar is one module of the same rollout; its length is the module's tests, the filled part the tests passing at the minute the playback clock shows
          (at the end: when the deadline hit). Tests pass as work gets done, all of them when the module is finished. A module that needs another one's
          interface ("needs m2") can only start once that module is done and its interface has reached the agent who works on it.
        </Explain>
      </h2>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${progress.filter((p) => p.done).length} of ${last.modules.length} modules finished`}>
        {last.modules.map((m, k) => {
          const p = progress[k];
          const y = k * rowH + 2;
          return (
            <g key={k}>
              <text className="tick" x={0} y={y + rowH / 2} dy="0.32em">
                m{k} {m.dep >= 0 ? `needs m${m.dep}` : ''} {m.luck ? '(luck)' : ''}
              </text>
              <rect className="bar-total" x={left} y={y + 2} width={x(m.tests)} height={rowH - 5} />
              <rect className={p.done ? 'bar-done' : 'bar-partial'} x={left} y={y + 2} width={x(p.passing)} height={rowH - 5} />
              <text className="tick" x={left + x(m.tests) + 6} y={y + rowH / 2} dy="0.32em">
                {p.passing}/{m.tests}
                {p.done ? ' ✓' : ''}
              </text>
            </g>
          );
        })}
      </svg>
    </section>
  );
}
