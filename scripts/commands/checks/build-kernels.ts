/**
 * Assembles the learn step's wasm kernels (src/rl/wasmKernels.wat) with wabt and writes them, base64,
 * into src/rl/wasmKernelsBinary.ts, which the app and the CLI load:
 *
 *   npm run build:kernels
 *
 * Run it after editing the .wat; `npm test` fails while the two disagree (scripts/lib/wasmKernelsAssemble.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { generatedKernels, KERNELS_BINARY } from '../../lib/wasmKernelsAssemble';

writeFileSync(KERNELS_BINARY, await generatedKernels());
console.log(`wrote ${KERNELS_BINARY}`);
