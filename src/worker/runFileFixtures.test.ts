import { describe, expect, it } from 'vitest';
import { fixtureBytes, RUN_FIXTURES } from '../core/fixtures/runFiles';
import { decodeRunFile, runFacts } from '../core/runFile';
import { importRun, type ImportMessage } from './importRun';
import { openRun, type OpenMessage } from './openRun';
import { RunAssembler } from './runParts';

/** The messages the run-file worker's import job (importRun) posts. */
function importing(bytes: Uint8Array): ImportMessage[] {
  const out: ImportMessage[] = [];
  importRun(bytes, (m) => out.push(m));
  return out;
}

/** The messages the run-file worker's open job (openRun) posts. */
function opening(bytes: Uint8Array): OpenMessage[] {
  const out: OpenMessage[] = [];
  openRun(bytes, (m) => out.push(m));
  return out;
}

/**
 * The checked-in run files of every version (src/core/fixtures) go through the run-file worker's
 * jobs as a user's file does: imported into the library (read, checked, packed again) and opened for
 * a replay (read, checked, sent to the page in pieces and put together there).
 */
describe('checked-in run files through the run-file worker', () => {
  for (const f of RUN_FIXTURES) {
    it(`${f.file} imports and opens with its facts`, () => {
      const direct = decodeRunFile(fixtureBytes(f));
      if (!direct.ok) throw new Error(`${f.file} no longer opens: ${direct.error}`);

      const imported = importing(fixtureBytes(f)).at(-1);
      if (imported?.kind !== 'done' || !imported.ok) throw new Error(`${f.file} was not imported: ${JSON.stringify(imported)}`);
      expect(imported.facts.finalReturn).toBe(f.returns.at(-1));
      expect(imported.facts.updates).toBe(f.returns.length);
      expect(imported.facts.checkpoints).toBe(f.checkpoints.length);
      // The library keeps the packed file; it reads back as the run the file held.
      const stored = decodeRunFile(imported.bytes);
      expect(stored).toEqual(direct);
      expect(imported.facts).toEqual(runFacts(direct.run, imported.bytes.length));

      const a = new RunAssembler();
      const opened = opening(fixtureBytes(f));
      for (const m of opened) if (m.kind === 'part') a.add(m.part);
      expect(opened.at(-1)).toEqual({ kind: 'done', ok: true });
      const run = a.run();
      expect(run).toEqual(direct.run);
      expect(run.metrics.map((m) => m.ret)).toEqual(f.returns);
      expect(run.config.structure).toBe(f.structure);
    });
  }
});
