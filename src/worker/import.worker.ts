import { importRun, type ImportMessage } from './importRun';

/** The import worker: one run file's bytes in, progress and the checked, packed run out. */
self.onmessage = (e: MessageEvent<Uint8Array>) => {
  importRun(e.data, (m: ImportMessage) => {
    if (m.kind === 'done' && m.ok) self.postMessage(m, { transfer: [m.bytes.buffer as ArrayBuffer] });
    else self.postMessage(m);
  });
};
