import { useEffect, type ReactNode } from 'react';
import { selectBackend, selectError, selectNotices, useApp, viewFromHash } from '../store/store';
import { hashFromConfig } from '../store/urlConfig';
import type { ViewPart } from '../store/view';
import { AblationsPanel } from './AblationsPanel';
import { Controls, RunButtons } from './Controls';
import { Countdown } from './Countdown';
import { Curves } from './Curves';
import { DmGraph } from './DmGraph';
import { Lesson } from './Lesson';
import { clampStep, LESSON } from './lessonSteps';
import { MessageBoard } from './MessageBoard';
import { ModuleBars } from './ModuleBars';
import { OrganisationsPanel } from './OrganisationsPanel';
import { ReplayBar } from './ReplayBar';
import { RunLibraryPanel } from './RunLibraryPanel';
import { ScheduleEditor } from './ScheduleEditor';
import { SettingsPanel } from './SettingsPanel';
import { Swimlanes } from './Swimlanes';
import { WorkCurves } from './WorkCurves';
import { usePlaybackDriver } from './usePlayback';
import { useTrainer } from './useTrainer';
import { episodeFrameSource } from './video/frameSource';
import { VideoExport } from './video/VideoExport';
import { EPISODE_VIEWS } from './video/views';
import './stage.css';

function BackendBadge() {
  const b = useApp(selectBackend);
  return (
    <p className="badge" data-testid="backend-badge" title={b?.notices.join('\n') || undefined}>
      {b ? b.reason : 'Choosing a backend…'}
    </p>
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
  return (
    <aside
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
      <button type="button" onClick={() => setView({ lesson: view.lesson === null ? 1 : null })} aria-pressed={view.lesson !== null} data-testid="lesson-toggle">
        Lesson
      </button>
      <button type="button" onClick={() => setView({ presenter: !view.presenter })} aria-pressed={view.presenter} title="Large type and high contrast, for a projector" data-testid="presenter-toggle">
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
  const controls = useTrainer();
  usePlaybackDriver();
  const view = useApp((s) => s.view);
  const lessonFocus = view.lesson !== null && !view.embed ? LESSON[clampStep(view.lesson) - 1].focus : null;
  // Links within the page (a lesson step's) change the view without reloading.
  useEffect(() => {
    const onHash = () => useApp.getState().setView(viewFromHash(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const shown = (p: ViewPart) => !view.hide.includes(p);
  const full = !view.embed;
  const classes = ['app', 'staged', view.presenter ? 'presenter' : '', view.embed ? 'embed' : ''].filter(Boolean).join(' ');
  return (
    <main className={classes} data-testid="app-root" data-focus={lessonFocus ?? undefined}>
      <div className="screen">
        {full && shown('header') ? (
          <header className="top">
            <h1>Swarm Playground</h1>
            {shown('bar') && <RunButtons controls={controls} />}
            <ViewButtons />
            <BackendBadge />
            <VideoExport source={episodeFrameSource} views={EPISODE_VIEWS} />
          </header>
        ) : (
          shown('bar') && (
            <div className="stage-bar" data-testid="stage-bar">
              <RunButtons controls={controls} />
              {view.embed && (
                <a className="open-full" href={fullAppLink()} target="_blank" rel="noopener">
                  Open in Swarm Playground
                </a>
              )}
            </div>
          )
        )}
        <Notices />
        <ReplayBar controls={controls} />
        <div className="stage-wrap">
          {view.lesson !== null && full && <Lesson controls={controls} />}
          <div className="stage" data-testid="stage">
            {shown('countdown') && <Countdown />}
            {shown('curve') && <Curves />}
            {shown('dm') && <DmGraph />}
            {shown('swimlanes') && <Swimlanes />}
            {shown('board') && <MessageBoard />}
          </div>
        </div>
      </div>
      {full && (
        <>
          <Drawer>
            {shown('controls') && <Controls controls={controls} />}
            {shown('schedule') && <ScheduleEditor controls={controls} />}
            {shown('ablations') && <AblationsPanel controls={controls} />}
            {shown('settings') && <SettingsPanel controls={controls} />}
          </Drawer>
          <div className="details" data-testid="details">
            <p className="lede">
              A swarm of agents shares one policy and earns one team reward: the share of tests passing when the deadline hits. Nobody gets individual credit, so they have to discover division of labour and when handing work over is worth a minute.
            </p>
            {shown('work') && <WorkCurves />}
            {shown('modules') && <ModuleBars />}
            {shown('organisations') && <OrganisationsPanel controls={controls} />}
            {shown('library') && <RunLibraryPanel controls={controls} />}
          </div>
        </>
      )}
    </main>
  );
}
