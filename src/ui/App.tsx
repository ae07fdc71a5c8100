import { selectError, selectNotices, useApp } from '../store/store';
import { AblationsPanel } from './AblationsPanel';
import { BackendBadge } from './BackendBadge';
import { Controls } from './Controls';
import { Countdown } from './Countdown';
import { Curves } from './Curves';
import { DmGraph } from './DmGraph';
import { MessageBoard } from './MessageBoard';
import { ModuleBars } from './ModuleBars';
import { OrganisationsPanel } from './OrganisationsPanel';
import { PlaybackDriver } from './PlaybackDriver';
import { ReplayBar } from './ReplayBar';
import { RunLibraryPanel } from './RunLibraryPanel';
import { ScheduleEditor } from './ScheduleEditor';
import { SettingsPanel } from './SettingsPanel';
import { Swimlanes } from './Swimlanes';
import { WorkCurves } from './WorkCurves';
import { useTrainer } from './useTrainer';
import { episodeFrameSource } from './video/frameSource';
import { VideoExport } from './video/VideoExport';
import { EPISODE_VIEWS } from './video/views';

function Notices() {
  const notices = useApp(selectNotices);
  const error = useApp(selectError);
  const dismiss = useApp((s) => s.dismissNotices);
  if (!notices.length && !error) return null;
  return (
    <div className="notices" role="status" data-testid="notices">
      {error && <p className="error">{error}</p>}
      {notices.length > 0 && (
        <>
          <p>Some settings in the link could not be used as given:</p>
          <ul>
            {notices.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
          <button type="button" onClick={dismiss}>
            Dismiss
          </button>
        </>
      )}
    </div>
  );
}

/** Root component: the swarm trains in a worker; the views show it live. */
export function App() {
  const controls = useTrainer();
  return (
    <main className="app" data-testid="app-root">
      <PlaybackDriver />
      <header className="top">
        <h1>Swarm Playground</h1>
        <BackendBadge />
        <VideoExport source={episodeFrameSource} views={EPISODE_VIEWS} />
      </header>
      <p className="lede">
        A swarm of agents shares one policy and earns one team reward: the share of tests passing when
        the deadline hits. Nobody gets individual credit, so they have to discover division of labour
        and when handing work over is worth a minute.
      </p>
      <Notices />
      <ReplayBar controls={controls} />
      <Controls controls={controls} />
      <AblationsPanel controls={controls} />
      <SettingsPanel controls={controls} />
      <div className="grid">
        <Curves />
        <div>
          <Countdown />
          <ScheduleEditor controls={controls} />
        </div>
      </div>
      <WorkCurves />
      <Swimlanes />
      <ModuleBars />
      <div className="grid">
        <DmGraph />
        <MessageBoard />
      </div>
      <OrganisationsPanel controls={controls} />
      <RunLibraryPanel controls={controls} />
    </main>
  );
}
