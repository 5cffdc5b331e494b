#!/usr/bin/env node
/**
 * EduClaw Lab command line: the same core as the page, with files instead of IndexedDB.
 *
 *   npm run cli -- run [--scenario <file>] --tutor <name> --seed <n> --out <trace.jsonl>
 *   npm run cli -- score <trace.jsonl...> [--json]
 *   npm run cli -- validate <scenario files...>
 *   npm run cli -- schema [--out scenarios/scenario.schema.json]
 *   npm run cli -- sweep --scenarios <dir|glob...> --tutor <name> [--seeds 1-5] [--jobs n] --out <dir>
 *   npm run cli -- personas [--tutor <name>] [--seeds 1-3] [--write docs/personas.md]
 *   npm run cli -- run --tutor llm --harness <reactive|notes|curriculum> --model <model> [--provider <name>] [--llm-config <file>] [--voice llm] ...
 *   npm run cli -- judge <traces...> --panel <config> [--days <n>|all] [--out-dir <dir>]
 *   npm run cli -- report <dir|traces...> [--out <dir>] [--format md|html|both] [--pass <rule>]
 *   npm run cli -- serve-mcp [--scenario <file>] [--seed <n>] --out <trace.jsonl> [--transport stdio|http]   (an MCP agent is the tutor)
 *   npm run cli -- run --tutor http --agent-url <url> ...                                                (an agent behind a URL)
 *   npm run cli -- export-trajectories <dir|traces...> [--per turn|run] [--out <file.jsonl>]
 *   npm run cli -- sweep ... --queue redis://host:port --out <shared dir>   (enqueue for workers; --status shows progress)
 *   npm run worker -- --queue redis://host:port --out <shared dir> [--llm-config <file>]   (a worker of a queue-backed sweep)
 */
import { Command } from 'commander';
import { registerCommands } from './command-table';

// A closed pipe (e.g. `| head`) ends the command quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const program = new Command();
program.name('educlaw').description('EduClaw Lab: run tutors against a simulated learner for 30 virtual days, and score the traces.').showHelpAfterError();

// One file per command under ./commands, listed in command-table.ts; only the command being run is loaded.
await registerCommands(program, process.argv.slice(2));

program.parseAsync(process.argv).catch((e: unknown) => {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
