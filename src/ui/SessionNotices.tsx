import { selectActions, selectElsewhere, selectFault, selectResumable, useApp } from '../store/store';

/**
 * What the training session has to tell: a trainer fault and how it was handled (restarted, resumed
 * from a checkpoint), and the offer to carry on the run that was being trained when the page was
 * last closed or reloaded (not in an embed: a course page's reader did not train that run, and the
 * library it would resume from is the whole app's).
 */
export function SessionNotices({ offerResume = true }: { offerResume?: boolean }) {
  const r = useApp(selectResumable);
  const fault = useApp(selectFault);
  const actions = useApp(selectActions);
  const setResumable = useApp((s) => s.setResumable);
  const setFault = useApp((s) => s.setFault);
  const elsewhere = useApp(selectElsewhere);
  const setElsewhere = useApp((s) => s.setElsewhere);
  return (
    <>
      {elsewhere && (
        <div className="notices" role="status" data-testid="other-tab">
          <p>
            {elsewhere === 'training'
              ? 'Another tab of this app is training, so this one does not: one tab trains at a time, so that two do not share the processor or save over each other’s runs.'
              : 'Another tab of this app took training over, so this one paused; its run is saved in the library.'}
          </p>
          <button type="button" onClick={() => void actions.takeOver()} data-testid="take-over">
            {elsewhere === 'training' ? 'Train here instead (the other tab pauses and saves its run)' : 'Take training back'}
          </button>
          <button type="button" onClick={() => setElsewhere(null)}>
            Dismiss
          </button>
        </div>
      )}
      {fault && (
        <div className="notices session-fault" role="alert" data-testid="session-fault">
          <p className="error">{fault}</p>
          <button type="button" onClick={() => setFault(null)}>
            Dismiss
          </button>
        </div>
      )}
      {r && offerResume && (
        <div className="notices" role="status" data-testid="resume-offer">
          <p>
            Your last run, “{r.name}” ({r.updates} updates), was saved when the page closed and is in the library.
          </p>
          <button
            type="button"
            onClick={() => {
              setResumable(null);
              void actions.resumeStored(r.id);
            }}
            data-testid="resume-run"
          >
            Resume training it
          </button>
          <button type="button" onClick={() => setResumable(null)}>
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}
