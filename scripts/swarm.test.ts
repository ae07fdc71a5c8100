import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandFile, COMMANDS, CONCERNS, type Command } from './lib/commands';

/** `npm run swarm -- ...args`, without waiting for it (the commands' checks run side by side). */
function swarmAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/swarm.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const swarm = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/swarm.ts', ...args], { encoding: 'utf8' });

describe('the command list', () => {
  it('names every file of scripts/commands/<concern>/ but the tests, once, and nothing else', () => {
    const files = Object.keys(CONCERNS).flatMap((concern) =>
      readdirSync(`scripts/commands/${concern}`)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .map((f) => `scripts/commands/${concern}/${f}`),
    );
    expect(COMMANDS.map(commandFile).sort()).toEqual(files.sort());
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
    for (const c of COMMANDS) expect(existsSync(commandFile(c)), commandFile(c)).toBe(true);
  });

  it("gives each command's npm script, and every npm script that runs a command is one of them", () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const c of COMMANDS.filter((c) => c.npm)) expect(scripts[c.npm!], c.name).toMatch(new RegExp(`^(tsx|node --import tsx) ${commandFile(c)}$`));
    const running = Object.entries(scripts).flatMap(([name, line]) => {
      const file = /scripts\/commands\/\S+\.ts/.exec(line)?.[0];
      return file ? [[name, COMMANDS.find((c) => commandFile(c) === file)?.npm]] : [];
    });
    for (const [name, npm] of running) expect(npm, name).toBe(name);
  });
});

describe('npm run swarm', () => {
  it('lists every command with its line, with --help and without arguments', () => {
    for (const args of [['--help'], []]) {
      const r = swarm(args);
      expect(r.status).toBe(0);
      for (const c of COMMANDS) expect(r.stdout).toContain(`  ${c.name} `);
      for (const c of COMMANDS) expect(r.stdout).toContain(c.summary);
    }
  });

  it("prints a command's own usage for <command> --help, by its name or its npm script", () => {
    const race = swarm(['race', '--help']);
    expect(race.status).toBe(0);
    expect(race.stdout).toMatch(/^usage: npm run race -- /);
    const policy = swarm(['bench:policy', '--help']);
    expect(policy.status).toBe(0);
    expect(policy.stdout).toMatch(/^usage: npm run bench:policy -- /);
  });

  it('runs every command: --help prints its usage with exit code 0, an unknown flag is one line naming it and exit code 2', async () => {
    // Four at a time: each is a Node process loading its command.
    type Run = Awaited<ReturnType<typeof swarmAsync>>;
    const results: { c: Command; help: Run; bad: Run }[] = [];
    const queue = [...COMMANDS];
    const next = async (): Promise<void> => {
      const c = queue.shift();
      if (!c) return;
      results.push({ c, help: await swarmAsync([c.name, '--help']), bad: await swarmAsync([c.name, '--bogus']) });
      return next();
    };
    await Promise.all([next(), next(), next(), next()]);
    expect(results.length).toBe(COMMANDS.length);
    for (const { c, help, bad } of results) {
      expect(help.status, `${c.name} --help\n${help.stderr}`).toBe(0);
      expect(help.stdout, c.name).toMatch(/^usage: /i);
      expect(bad.status, `${c.name} --bogus\n${bad.stderr}`).toBe(2);
      expect(bad.stderr.split('\n')[0], c.name).toMatch(/: unknown flag --bogus$/);
    }
  }, 180_000);

  it("passes the flags on: a command's bad flag is its one-line message and exit code 2", () => {
    const r = swarm(['calibrate', '--agentz', '3']);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('calibrate: unknown flag --agentz');
  });

  it('refuses an unknown command or a flag before the command with one line, the list and exit code 2', () => {
    const r = swarm(['nope', '--help']);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('swarm: unknown command "nope"');
    expect(r.stderr).toContain('  experiment ');
    const flag = swarm(['--quick']);
    expect(flag.status).toBe(2);
    expect(flag.stderr.split('\n')[0]).toMatch(/^swarm: unknown flag --quick /);
  });
});
