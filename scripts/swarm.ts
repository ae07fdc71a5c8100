/**
 * The command line's one entry point: `npm run swarm -- <command> [flags]` runs a command of
 * scripts/commands/ by name (scripts/lib/commands.ts lists them), in this process, with its flags,
 * as `npm run <command>` does. Without a command, or with `--help`, it lists them; an unknown
 * command or flag is one line and the list on stderr, exit code 2.
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { commandFile, commandList, findCommand } from './lib/commands';

const root = fileURLToPath(new URL('..', import.meta.url));
const [name, ...flags] = process.argv.slice(2);

function refuse(line: string): never {
  process.stderr.write(`swarm: ${line}\n${commandList()}\n`);
  process.exit(2);
}

if (name === undefined || name === '--help') {
  process.stdout.write(commandList() + '\n');
  process.exit(0);
}
if (name.startsWith('-')) refuse(`unknown flag ${name} (the command comes first: npm run swarm -- <command> [flags])`);
const command = findCommand(name) ?? refuse(`unknown command "${name}"`);
const file = resolve(root, commandFile(command));
// The command reads its flags from process.argv, as when it is started by its own file.
process.argv = [process.argv[0], file, ...flags];
await import(pathToFileURL(file).href);
