import { runFileJob, type RunFileJob } from './runFileJobs';

/** The run-file worker: one job in (import, rename or open a run file), progress and its outcome out. */
self.onmessage = (e: MessageEvent<RunFileJob>) => {
  runFileJob(e.data, (m, transfer) => self.postMessage(m, { transfer }));
};
