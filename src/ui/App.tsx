import { NUMERIC_FAULT_PREFIX, saferLearningRate } from '../rl/numericGuard';
import { selectActions, selectError, selectNotices, useApp } from '../store/store';
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
import { SettingsWarnings } from './SettingsWarnings';
import { Swimlanes } from './Swimlanes';
import { WorkCurves } from './WorkCurves';
import { useSession } from './useSession';
import { SessionNotices } from './SessionNotices';
import { ViewBoundary } from './ViewBoundary';
import { episodeFrameSource } from './video/frameSource';
import { VideoExport } from './video/VideoExport';
import { EPISODE_VIEWS } from './video/views';

/** The run being replayed (null when live): a new one gives failed views a fresh try. */
const selectReplayRun = (s: { replay: { run: unknown } | null }) => s.replay?.run ?? null;

/** After a numerical fault: one click lowers the learning rate tenfold and trains on from the last good weights. */
function ResumeAfterFault() {
  const controls = useApp(selectActions);
  const lr = useApp((s) => s.config.lr);
  const safer = saferLearningRate(lr);
  return (
    <button
      type="button"
      data-testid="fault-resume"
      onClick={() => {
        useApp.getState().setError(null);
        controls.configure({ lr: safer });
        controls.start();
      }}
    >
      Lower the learning rate to {safer} and resume
    </button>
  );
}

function Notices() {
  const notices = useApp(selectNotices);
  const error = useApp(selectError);
  const dismiss = useApp((s) => s.dismissNotices);
  if (!notices.length && !error) return null;
  return (
    <div className="notices" role="status" data-testid="notices">
      {error && <p className="error">{error}</p>}
      {error?.startsWith(NUMERIC_FAULT_PREFIX) && <ResumeAfterFault />}
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
  useSession();
  const replayRun = useApp(selectReplayRun);
  return (
    <main className="app" data-testid="app-root">
      <PlaybackDriver />
      <header className="top">
        <h1>Swarm Playground</h1>
        <BackendBadge />
        <ViewBoundary name="Video export" resetKey={replayRun}><VideoExport source={episodeFrameSource} views={EPISODE_VIEWS} /></ViewBoundary>
      </header>
      <p className="lede">
        A swarm of agents shares one policy and earns one team reward: the share of tests passing when
        the deadline hits. Nobody gets individual credit, so they have to discover division of labour
        and when handing work over is worth a minute.
      </p>
      <Notices />
      <SessionNotices />
      <SettingsWarnings />
      <ViewBoundary name="Replay bar" resetKey={replayRun}><ReplayBar /></ViewBoundary>
      <ViewBoundary name="Controls" resetKey={replayRun}><Controls /></ViewBoundary>
      <ViewBoundary name="Ablations" resetKey={replayRun}><AblationsPanel /></ViewBoundary>
      <ViewBoundary name="Settings" resetKey={replayRun}><SettingsPanel /></ViewBoundary>
      <div className="grid">
        <ViewBoundary name="Training curves" resetKey={replayRun}><Curves /></ViewBoundary>
        <div>
          <ViewBoundary name="Countdown" resetKey={replayRun}><Countdown /></ViewBoundary>
          <ViewBoundary name="Deadline schedule" resetKey={replayRun}><ScheduleEditor /></ViewBoundary>
        </div>
      </div>
      <ViewBoundary name="Work curves" resetKey={replayRun}><WorkCurves /></ViewBoundary>
      <ViewBoundary name="Swimlanes" resetKey={replayRun}><Swimlanes /></ViewBoundary>
      <ViewBoundary name="Module bars" resetKey={replayRun}><ModuleBars /></ViewBoundary>
      <div className="grid">
        <ViewBoundary name="Message graph" resetKey={replayRun}><DmGraph /></ViewBoundary>
        <ViewBoundary name="Message board" resetKey={replayRun}><MessageBoard /></ViewBoundary>
      </div>
      <ViewBoundary name="Organisations" resetKey={replayRun}><OrganisationsPanel /></ViewBoundary>
      <ViewBoundary name="Run library" resetKey={replayRun}><RunLibraryPanel /></ViewBoundary>
    </main>
  );
}
