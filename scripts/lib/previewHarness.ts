import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

/** Debian's Chromium, used when installed; otherwise Playwright's own. */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--enable-unsafe-webgpu',
];

/** Runs a command with the terminal's output; rejects when it fails. */
function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: 'inherit' });
    p.on('error', reject);
    p.on('exit', (code, sig) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (${sig ?? `exit ${code}`})`))));
  });
}

/**
 * The built site served by `vite preview` on `port`, and a headless Chromium to drive it: what the
 * UI benchmarks (bench-ui.ts, soak-ui.ts) share. `close` stops both, also on Ctrl-C (`stopOnSignals`).
 */
export class PreviewHarness {
  private server: ChildProcess | undefined;
  private browser: Browser | undefined;

  constructor(readonly port: number) {}

  get origin(): string {
    return `http://localhost:${this.port}`;
  }

  /** Builds the site (with `buildArgs` for `vite build`), or checks that a build is there (`--no-build`). */
  async prepare(build: boolean, buildArgs: string[] = []): Promise<void> {
    if (build) await run('npm', ['run', 'build', ...(buildArgs.length ? ['--', ...buildArgs] : [])]);
    else if (!existsSync('dist/index.html')) throw new Error('--no-build given but dist/index.html does not exist');
  }

  /** Starts `vite preview` and waits until it serves this build's dist/index.html (another server may hold the port on another address). */
  async serve(timeoutMs = 60_000): Promise<void> {
    const s = spawn('npx', ['vite', 'preview', '--port', String(this.port), '--strictPort'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.server = s;
    let output = '';
    s.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    s.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (s.exitCode !== null || s.signalCode !== null) throw new Error(`vite preview exited (${s.signalCode ?? `exit ${s.exitCode}`}):\n${output.trim()}`);
      try {
        const res = await fetch(this.origin, { signal: AbortSignal.timeout(2000) });
        if (res.ok && (await res.text()) === readFileSync('dist/index.html', 'utf8')) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`vite preview did not serve dist/index.html on ${this.origin} within ${timeoutMs / 1000} s:\n${output.trim()}`);
  }

  /** A headless Chromium with the e2e suite's flags; the one launched before, if any, is closed first (its page would go on training beside the next). */
  async launch(): Promise<Browser> {
    await this.browser?.close().catch(() => undefined);
    this.browser = await chromium.launch({ headless: true, executablePath: existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined, args: CHROMIUM_ARGS });
    return this.browser;
  }

  /** Closes the browser and stops the server's whole process group (npx, node, vite). */
  async close(): Promise<void> {
    const b = this.browser;
    this.browser = undefined;
    await b?.close().catch(() => undefined);
    const s = this.server;
    this.server = undefined;
    if (!s || s.pid === undefined || s.exitCode !== null) return;
    try {
      process.kill(-s.pid, 'SIGTERM');
    } catch {
      s.kill('SIGTERM');
    }
  }

  /** On Ctrl-C or SIGTERM: close, then exit with the signal's usual code. */
  stopOnSignals(): void {
    const stop = (sig: NodeJS.Signals) => {
      console.error(`\n${sig}: stopping the preview server and the browser`);
      void this.close().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
}

/**
 * Runs a UI benchmark's `main` and exits with its code; on an error prints it, stops the preview
 * server and the browser of `harness()` (if one was made) and exits with 1.
 */
export function runToExit(main: () => Promise<number>, harness: () => PreviewHarness | undefined): void {
  main().then(
    (code) => process.exit(code),
    async (err) => {
      console.error(err);
      await harness()?.close();
      process.exit(1);
    },
  );
}
