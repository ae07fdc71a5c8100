import { useRef } from 'react';
import { GLOSSARY } from './glossary';

/** The glossary: a button (in the header, beside the help) that opens every term with its plain words and one line. */
export function GlossaryButton() {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" onClick={() => dialog.current?.showModal()} title="The words of the app in plain language" data-testid="glossary-open">
        Glossary
      </button>
      <dialog ref={dialog} className="glossary" aria-labelledby="glossary-title" data-testid="glossary">
        <h2 id="glossary-title">Glossary</h2>
        <dl>
          {GLOSSARY.map((g) => (
            <div key={g.term} data-testid="glossary-entry">
              <dt>
                {g.term} <span className="glossary-plain">({g.plain})</span>
              </dt>
              <dd>{g.line}</dd>
            </div>
          ))}
        </dl>
        <button type="button" onClick={() => dialog.current?.close()} data-testid="glossary-close">
          Close
        </button>
      </dialog>
    </>
  );
}
