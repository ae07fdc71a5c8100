/**
 * Assembles the learn step's wasm kernels (src/rl/wasmKernels.wat) with wabt and writes them, base64,
 * into src/rl/wasmKernelsBinary.ts, which the app and the CLI load:
 *
 *   npm run build:kernels
 *
 * Run it after editing the .wat; `npm test` fails while the two disagree (scripts/lib/wasmKernelsAssemble.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { parseFlags, readCommandLine } from '../../lib/cli';
import { generatedKernels, KERNELS_BINARY } from '../../lib/wasmKernelsAssemble';

const USAGE = `usage: npm run build:kernels
  assembles src/rl/wasmKernels.wat and writes ${KERNELS_BINARY} (no flags)
  --help   print this help`;

readCommandLine('build:kernels', USAGE, (argv) => (parseFlags(argv, { help: { type: 'boolean', default: false } }).help ? 'help' : null));

writeFileSync(KERNELS_BINARY, await generatedKernels());
console.log(`wrote ${KERNELS_BINARY}`);
