/**
 * context-oracle CLI: argument parsing → engine → formatter. Exit codes: 0 ok, 1 error, 2 usage.
 * Output goes to stdout; progress and logs go to stderr.
 */
import { resolve } from 'node:path';
import { EngineError } from '../core';
import { createStderrLogger } from '../node/logger';
import { createNodeEngine } from '../node/node-engine';
import { parseArgs, UsageError, type FlagSpec } from './args';
import { ensureIndex, mutableLogger } from './auto-index';
import { COMMANDS } from './commands';
import { cliUserModel } from './model-flags';
import { applyHostHeapPolicy } from '../node/heap-policy';
import { wasmBaselineOnly } from '../node/wasm-tiering';
import { optimiseLongRunningCodeOnly } from '../node/js-tiering';

applyHostHeapPolicy();

const COMMON: Record<string, FlagSpec> = {
  root: { type: 'string' },
  db: { type: 'string' },
  json: { type: 'boolean' },
  exclude: { type: 'list' },
  'max-file-bytes': { type: 'number' },
  'max-memory-mb': { type: 'number' },
  'no-gitignore': { type: 'boolean' },
  'no-redact': { type: 'boolean' },
  'session-logs': { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
};

function help(): string {
  const rows = COMMANDS.map((c) => `  ${c.usage}\n      ${c.summary}`);
  return [
    'usage: context-oracle <command> [options]',
    '',
    'commands:',
    ...rows,
    '',
    'options for every command:',
    '  --root DIR            workspace root (default: current directory)',
    '  --db FILE             index file (default: <cache>/context-oracle/<workspace>-<hash>/index.db, where <cache>',
    '                        is XDG_CACHE_HOME or ~/.cache, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows)',
    '  --session-logs WHERE  the oracle\'s session logs: cache (default) or workspace (.context-oracle/threads/)',
    '  --json                machine-readable output',
    '  --exclude GLOB        never index paths matching GLOB (repeatable)',
    '  --max-file-bytes N    skip files larger than N bytes (default 1048576)',
    '  --max-memory-mb N     indexing stays under N MB resident: smaller batches near it (default 1024; 0: no limit)',
    '  --no-gitignore        index files that .gitignore excludes',
    '  --no-redact           show secrets found in code as they are (redacted by default)',
    '  -v, --verbose         log progress details to stderr',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [commandName, ...rest] = argv;
  if (!commandName || commandName === '--help' || commandName === '-h' || commandName === 'help') {
    process.stdout.write(`${help()}\n`);
    return commandName ? 0 : 2;
  }
  if (commandName === '--version') {
    process.stdout.write('context-oracle 0.1.0\n');
    return 0;
  }
  // Most re-indexes find nothing to parse: see wasm-tiering.ts; and most of a full one's JS runs briefly: js-tiering.ts.
  if (commandName === 'index') {
    wasmBaselineOnly();
    optimiseLongRunningCodeOnly();
  }
  const command = COMMANDS.find((c) => c.name === commandName);
  if (!command) {
    process.stderr.write(`unknown command "${commandName}"\n\n${help()}\n`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs(rest, { ...COMMON, ...command.flags });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\nusage: context-oracle ${command.usage}\n`);
    return 2;
  }
  const { flags, positionals } = parsed;
  if (flags.help) {
    process.stdout.write(`usage: context-oracle ${command.usage}\n`);
    return 0;
  }
  const quiet = { muted: false };
  const logger = mutableLogger(createStderrLogger(flags.verbose ? 'debug' : 'warn'), quiet);
  const root = resolve(String(flags.root ?? process.cwd()));
  const sessionLogs = flags['session-logs'];
  if (sessionLogs !== undefined && sessionLogs !== 'cache' && sessionLogs !== 'workspace') {
    process.stderr.write(`--session-logs takes cache or workspace, got "${String(sessionLogs)}"\nusage: context-oracle ${command.usage}\n`);
    return 2;
  }
  let userModel;
  try {
    userModel = cliUserModel(command.name, flags);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${e.message}\nusage: context-oracle ${command.usage}\n`);
    return 2;
  }
  const engine = createNodeEngine({
    userModel,
    root,
    // A relative --db is relative to where the command runs, as --import and --export are (the engine alone would
    // take it from the root, and an index meant to sit beside a script landed inside the indexed tree).
    ...(flags.db ? { indexPath: resolve(String(flags.db)) } : {}),
    logger,
    config: {
      ...(flags.exclude ? { exclude: flags.exclude as string[] } : {}),
      ...(flags['max-file-bytes'] !== undefined ? { maxFileBytes: Number(flags['max-file-bytes']) } : {}),
      ...(flags['max-memory-mb'] !== undefined ? { indexMemoryMb: Number(flags['max-memory-mb']) } : {}),
      ...(flags['no-gitignore'] ? { respectGitignore: false } : {}),
      ...(flags['no-redact'] ? { redactSecrets: false } : {}),
      ...(sessionLogs ? { sessionLogs } : {}),
    },
  });
  try {
    if (command.needsIndex) await ensureIndex(engine, (line) => process.stderr.write(`${line}\n`), quiet);
    return await command.run({ engine, positionals, flags, out: (s) => process.stdout.write(`${s}\n`) });
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${e.message}\nusage: context-oracle ${command.usage}\n`);
      return 2;
    }
    if (EngineError.is(e)) {
      if (flags.json) process.stdout.write(`${JSON.stringify({ error: e.toJSON() })}\n`);
      process.stderr.write(`error (${e.code}): ${e.message}\n`);
      return 1;
    }
    process.stderr.write(`internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    return 1;
  } finally {
    await engine.dispose();
  }
}

if (require.main === module) {
  // A reader that stops early (`| head`) closes the pipe: the output it wanted was written, so stop quietly, as
  // Unix tools do, instead of crashing on an unhandled EPIPE.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(0);
  });
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (e) => { process.stderr.write(`${String(e)}\n`); process.exitCode = 1; },
  );
}
