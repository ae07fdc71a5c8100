/**
 * The page's controllers on the page's store: the one place they meet the global store and the
 * page's workers (everything else in src/app is handed them, so tests build their own).
 */
import { RunLibrary } from '../store/runDatabase';
import { useApp } from '../store/store';
import { workerCodec } from '../worker/runFileClient';
import { LessonController } from './lesson';
import { RunLibraryController, setActiveRunId } from './runLibrary';

let opened: Promise<RunLibrary> | null = null;

/** The page's run library (opened on first use); it reads stored runs in the run-file worker. */
export function pageLibrary(): Promise<RunLibrary> {
  opened ??= RunLibrary.open(undefined, workerCodec, {
    // Deleted or lost under the page: the next use opens a new one, and the run being trained is saved again into it.
    closed: (why) => {
      opened = null;
      runs.saver.libraryGone(why);
      void runs.refreshRuns();
    },
  }).catch((e: unknown) => {
    opened = null;
    throw e;
  });
  return opened;
}

/** The page's run library actions and the recording saver of the run being trained (remembered for a reload). */
export const runs = new RunLibraryController(useApp, { library: pageLibrary, codec: workerCodec, base: import.meta.env.BASE_URL, stored: setActiveRunId });

/** The page's lesson controller (it remembers the pretrained run it put on screen, across steps and reopenings). */
export const lesson = new LessonController(useApp, runs.openPretrained);
