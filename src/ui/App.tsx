import { useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { saferLearningRate } from '../rl/numericFault';
import { resumeWithSaferRate } from '../app/faultResume';
import { followHashLink } from '../app/hashLink';
import { selectError, selectNotices, selectStoppedBy, useApp } from '../store/store';
import { hashFromConfig } from '../store/urlConfig';
import { viewEntry, type ViewPart } from '../store/view';
import { AblationsPanel } from './AblationsPanel';
import { BackendBadge } from './BackendBadge';
import { Controls, RunButtons } from './Controls';
import { Countdown } from './Countdown';
import { Curves } from './Curves';
import { DmGraph } from './DmGraph';
import { GlossaryButton } from './Glossary';
import { Lesson } from './Lesson';
import { clampStep, LESSON } from './lessonSteps';
import { MessageBoard } from './MessageBoard';
import { ModuleBars } from './ModuleBars';
import { OrganisationsPanel } from './OrganisationsPanel';
import { PlaybackDriver } from './PlaybackDriver';
import { ReplayBar } from './ReplayBar';
import { RunLibraryPanel } from './RunLibraryPanel';
import { ScheduleEditor } from './ScheduleEditor';
import { SettingsPanel } from './SettingsPanel';
import { ChannelSettings } from './ChannelSettings';
import { SettingsWarnings } from './SettingsWarnings';
import { Swimlanes } from './Swimlanes';
import { WorkCurves } from './WorkCurves';
import { useSession } from './useSession';
import { useSvgTextScale } from './useSvgTextScale';
import { stageGrid } from './stageGrid';
import { SessionNotices } from './SessionNotices';
import { ViewBoundary } from './ViewBoundary';
import { episodeFrameSource } from './video/frameSource';
import { VideoExport } from './video/VideoExport';
import { EPISODE_VIEWS } from './video/views';
import './stage.css';

/** The run being replayed (null when live): a new one gives failed views a fresh try. */
const selectReplayRun = (s: { replay: { run: unknown } | null }) => s.replay?.run ?? null;

/** After a numerical fault: one click lowers the learning rate tenfold and trains on from the last good weights. */
function ResumeAfterFault() {
  const safer = saferLearningRate(useApp((s) => s.config.lr));
  return (
    <button type="button" data-testid="fault-resume" onClick={() => void resumeWithSaferRate(useApp)}>
      Lower the learning rate to {safer} and resume
    </button>
  );
}

function Notices() {
  const notices = useApp(selectNotices);
  const error = useApp(selectError);
  const stoppedBy = useApp(selectStoppedBy);
  const dismiss = useApp((s) => s.dismissNotices);
  if (!notices.length && !error) return null;
  return (
    <div className="notices" role="status" data-testid="notices">
      {error && <p className="error">{error}</p>}
      {error && stoppedBy?.kind === 'numeric' && <ResumeAfterFault />}
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

/** The controls drawer: beside the stage when open (wide screens), else in the page below it. */
function Drawer({ children }: { children: ReactNode }) {
  const open = useApp((s) => s.drawerOpen);
  const presenter = useApp((s) => s.view.presenter);
  const box = useRef<HTMLElement>(null);
  // A lesson step's schedule or ablations in presenter mode: the charts' text at 16.5 px too.
  useSvgTextScale(box, presenter && open);
  return (
    <aside
      ref={box}
      id="controls-drawer"
      className={open ? 'drawer open' : 'drawer'}
      aria-label="Controls"
      tabIndex={-1}
      data-testid="drawer"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          useApp.getState().setDrawerOpen(false);
          document.getElementById('drawer-toggle')?.focus();
        }
      }}
    >
      {open && (
        <div className="drawer-head">
          <strong>Controls</strong>
          <button type="button" onClick={() => useApp.getState().setDrawerOpen(false)} aria-label="Close the controls">
            Close ✕
          </button>
        </div>
      )}
      {children}
    </aside>
  );
}

/** Lesson, presenter mode and the controls drawer's toggle. */
function ViewButtons() {
  const view = useApp((s) => s.view);
  const open = useApp((s) => s.drawerOpen);
  const setView = useApp((s) => s.setView);
  return (
    <div className="view-buttons">
      <button
        type="button"
        onClick={() => setView({ lesson: view.lesson === null ? 1 : null })}
        aria-pressed={view.lesson !== null}
        data-testid="lesson-toggle"
      >
        Lesson
      </button>
      <button
        type="button"
        onClick={() => setView({ presenter: !view.presenter })}
        aria-pressed={view.presenter}
        title="Large type and high contrast, for a projector"
        data-testid="presenter-toggle"
      >
        Presenter
      </button>
      <button
        type="button"
        id="drawer-toggle"
        onClick={() => {
          useApp.getState().setDrawerOpen(!open);
          // Opened by hand, the drawer takes the focus (Esc gives it back); a lesson step opening it does not.
          if (!open) requestAnimationFrame(() => document.getElementById('controls-drawer')?.focus());
        }}
        aria-expanded={open}
        aria-controls="controls-drawer"
        data-testid="drawer-toggle"
      >
        Controls
      </button>
      <GlossaryButton />
    </div>
  );
}

/** A link to the whole app with the embedded run's settings (embed and hidden parts left out). */
function fullAppLink(): string {
  const s = useApp.getState();
  return location.pathname + hashFromConfig(s.config, s.backendChoice, { ...s.view, embed: false, hide: [] });
}

/** Root component: the swarm trains in a worker; the views show it live on one screen (the stage). */
export function App() {
  useSession();
  const replayRun = useApp(selectReplayRun);
  const view = useApp((s) => s.view);
  const focusPart = view.lesson !== null && !view.embed ? LESSON[clampStep(view.lesson) - 1].focus : null;
  const lessonFocus = focusPart ? viewEntry(focusPart).testId : null;
  // In presenter mode a step's panel from below the stage or from the drawer is lifted onto it, where the class can see it.
  const liftable = focusPart ? viewEntry(focusPart).place : null;
  const lifted = view.presenter && focusPart && (liftable === 'details' || liftable === 'drawer') ? focusPart : null;
  // Links within the page change the view; a link with other settings reloads (followHashLink).
  useEffect(() => {
    const onHash = () => followHashLink(useApp, location.hash, () => location.reload());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const stage = useRef<HTMLDivElement>(null);
  useSvgTextScale(stage, view.presenter);
  const shown = (p: ViewPart) => !view.hide.includes(p);
  const full = !view.embed;
  const grid = stageGrid(shown);
  const classes = ['app', 'staged', view.presenter ? 'presenter' : '', view.embed ? 'embed' : ''].filter(Boolean).join(' ');
  /** A view in its error boundary: one bad value shows a message in that view, never a blank page. */
  const guarded = (name: string, node: ReactNode) => (
    <ViewBoundary name={name} resetKey={replayRun}>
      {node}
    </ViewBoundary>
  );
  /** A view of the table (store/view.ts): drawn unless hidden, its failure named by the table's label. */
  const part = (p: ViewPart, node: ReactNode) => shown(p) && guarded(viewEntry(p).label, node);
  const detail = (p: 'work' | 'modules' | 'organisations' | 'library', node: ReactNode) => lifted !== p && part(p, node);
  const inDrawer = (p: 'schedule' | 'ablations', node: ReactNode) => lifted !== p && part(p, node);
  const liftedNode =
    lifted === 'work' ? (
      <WorkCurves />
    ) : lifted === 'organisations' ? (
      <OrganisationsPanel />
    ) : lifted === 'schedule' ? (
      <ScheduleEditor />
    ) : lifted === 'ablations' ? (
      <AblationsPanel />
    ) : null;
  return (
    <main className={classes} data-testid="app-root" data-focus={lessonFocus ?? undefined}>
      <PlaybackDriver />
      <div className="screen">
        {full && shown('header') ? (
          <header className="top">
            <h1>Swarm Playground</h1>
            {shown('bar') && <RunButtons />}
            <ViewButtons />
            {/* The badge and the video button wrap together: never one button alone on a row. */}
            <div className="top-end">
              <BackendBadge />
              {guarded('Video export', <VideoExport source={episodeFrameSource} views={EPISODE_VIEWS} />)}
            </div>
          </header>
        ) : (
          shown('bar') && (
            <div className="stage-bar" data-testid="stage-bar">
              <RunButtons />
              {view.embed && (
                <a className="open-full" href={fullAppLink()} target="_blank" rel="noopener">
                  Open in Swarm Playground
                </a>
              )}
            </div>
          )
        )}
        <Notices />
        <SessionNotices offerResume={full} />
        <SettingsWarnings />
        <div className="stage-wrap" style={{ '--stage-areas': grid.areas, '--stage-rows': grid.rows } as CSSProperties}>
          {view.lesson !== null && full && guarded('Lesson', <Lesson />)}
          {/* The replay's bar sits above the stage, beside the lesson: the lesson's column keeps the window's height. */}
          <div className="stage-main">
            {guarded('Replay bar', <ReplayBar />)}
            <div className="stage" data-testid="stage" ref={stage}>
              {part('countdown', <Countdown />)}
              {part('curve', <Curves />)}
              {part('dm', <DmGraph />)}
              {part('swimlanes', <Swimlanes />)}
              {part('board', <MessageBoard />)}
              {lifted && liftedNode && part(lifted, liftedNode)}
            </div>
          </div>
        </div>
      </div>
      {full && (
        <>
          <Drawer>
            {part('controls', <Controls />)}
            {inDrawer('schedule', <ScheduleEditor />)}
            {inDrawer('ablations', <AblationsPanel />)}
            {part(
              'settings',
              <>
                <section className="panel channel-panel" aria-label="Channels">
                  <ChannelSettings />
                </section>
                <SettingsPanel />
              </>,
            )}
          </Drawer>
          <div className="details" data-testid="details">
            <p className="lede">
              A swarm of agents shares one policy and earns one team reward: the share of tests passing when the deadline hits. Nobody gets individual credit,
              so they have to discover division of labour and when handing work over is worth a minute.
            </p>
            {detail('work', <WorkCurves />)}
            {detail('modules', <ModuleBars />)}
            {detail('organisations', <OrganisationsPanel />)}
            {detail('library', <RunLibraryPanel />)}
          </div>
        </>
      )}
    </main>
  );
}
