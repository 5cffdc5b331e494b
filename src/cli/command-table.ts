/**
 * The CLI's commands, loaded lazily. Each command lives in ./commands/<name>.ts with its options,
 * description and implementation, and imports what it needs (the core, onnxruntime-web, openai,
 * vega, the MCP SDK, BullMQ…). Importing them all cost every start of the CLI about a second, so
 * main.ts imports only the module of the command being run: `educlaw run …` loads commands/run.ts
 * and registers it exactly as before (every option, its help); `educlaw --help` (or no command, or
 * an unknown one) lists the commands from this table without loading any of them.
 *
 * A new command: a row here (its name, arguments and the opening of its description: the table's
 * test, command-table.test.ts, checks both against the module).
 */
import type { Command } from 'commander';

export interface CommandEntry {
  name: string;
  /** The arguments as the top-level help lists them ("<traces...>"), as the module registers them. */
  args: string;
  /** The opening of the command's description (its first sentence or paragraph), for the top-level help. */
  summary: string;
  /** Imports the command's module and registers the command on the program. */
  register: (program: Command) => Promise<void>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'run', args: '', summary: 'Run one tutor on one scenario, writing the trace as JSONL while it runs; or resume an interrupted run from its trace.', register: async (p) => (await import('./commands/run')).registerRun(p) },
  { name: 'score', args: '<traces...>', summary: 'Score traces on the deterministic axes (judged axes stay "unscored" until judged), with value added over the no-tutor control on the same student when that control has been run (--controls runs it once and caches it).', register: async (p) => (await import('./commands/score')).registerScore(p) },
  { name: 'validate', args: '<files...>', summary: 'Validate scenario files; exits non-zero and names file, field and line for each problem.', register: async (p) => (await import('./commands/validate')).registerValidate(p) },
  { name: 'schema', args: '', summary: 'Write the scenario JSON Schema (for editors).', register: async (p) => (await import('./commands/schema')).registerSchema(p) },
  { name: 'sweep', args: '', summary: 'Run tutors over every scenario × seed; write one trace per run (appended as it runs) and a summary (per tutor: per scenario and overall, mean and 95% interval over seeds).', register: async (p) => (await import('./commands/sweep')).registerSweep(p) },
  { name: 'personas', args: '', summary: 'Measure how the built-in personas behave: run the 55 library scenarios and print the persona table (help requests, active minutes, give-ups, pre-tutor probe accuracy) and the ability-level table.', register: async (p) => (await import('./commands/personas')).registerPersonas(p) },
  { name: 'kt', args: '', summary: 'Knowledge-tracing models: evaluate on held-out students, train.', register: async (p) => (await import('./commands/kt')).registerKt(p) },
  { name: 'calibration', args: '<traces...>', summary: "Calibration of simulated learners: (run, day) predicted vs observed accuracy of the learner's own attempts (ECE, Brier, reliability bins), for each coupling mode apart", register: async (p) => (await import('./commands/calibration')).registerCalibration(p) },
  { name: 'items', args: '', summary: 'The item bank: sample items, grade answers, self-check the generators.', register: async (p) => (await import('./commands/items')).registerItems(p) },
  { name: 'judge', args: '<traces...>', summary: 'Judge stored traces with an LLM panel; verdicts are stored with each trace (after run_end).', register: async (p) => (await import('./commands/judge')).registerJudge(p) },
  { name: 'report', args: '<paths...>', summary: 'The results report of a set of traces: axes per tutor, learning curves with the steady-learning reference, trade-offs, model × harness rankings, failure modes, pass^k, action kinds, axis correlations (docs/analyses.md).', register: async (p) => (await import('./commands/report')).registerReport(p) },
  { name: 'serve-mcp', args: '', summary: 'Serve the LMS of a run (or of a series of runs) as an MCP server: an MCP-capable agent is the tutor.', register: async (p) => (await import('./commands/serve-mcp')).registerServeMcp(p) },
  { name: 'export-trajectories', args: '<runs...>', summary: "Write the tutor's side of runs as training data", register: async (p) => (await import('./commands/export-trajectories')).registerExportTrajectories(p) },
  { name: 'worker', args: '', summary: 'Run the runs of a queue-backed sweep (sweep --queue): take runs from the BullMQ queue, run them, and write their traces to the shared directory', register: async (p) => (await import('./commands/worker')).registerWorker(p) },
];

/** The command named by the arguments after the program's name ("help <command>" names it too), or null. */
export function commandNameIn(args: readonly string[]): string | null {
  const words = args.filter((a) => !a.startsWith('-'));
  if (words[0] === 'help') return words[1] ?? null;
  return args[0] !== undefined && !args[0].startsWith('-') ? args[0] : null;
}

/**
 * Registers what `args` needs on the program: the named command's module (loaded now), or, with
 * no known command, every command by name, arguments and summary for the list of commands (their
 * options are in `educlaw <command> --help`). A command already registered is left as it is.
 */
export async function registerCommands(program: Command, args: readonly string[]): Promise<void> {
  const has = (name: string) => program.commands.some((c) => c.name() === name);
  const entry = COMMANDS.find((c) => c.name === commandNameIn(args));
  if (entry) {
    if (!has(entry.name)) await entry.register(program);
    return;
  }
  for (const c of COMMANDS) {
    if (has(c.name)) continue;
    const cmd = program.command(c.name).description(c.summary);
    if (c.args) cmd.arguments(c.args);
  }
  program.addHelpText('after', '\nEach command\'s options and full description: educlaw <command> --help');
}
