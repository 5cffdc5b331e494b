/**
 * `export-trajectories`: the tutor's side of runs as training data: JSONL in the common chat
 * format (messages with tool calls and tool results), one line per turn (default) or per run,
 * with the run's per-turn, per-day and per-run signals (core/trajectory; format:
 * docs/bring-your-own-tutor.md#trajectories).
 *
 *   npm run cli -- export-trajectories runs/bench --out runs/bench/trajectories.jsonl
 *   npm run cli -- export-trajectories runs/a.jsonl runs/b.jsonl --per run --complete-only > runs.jsonl
 */
import { Option, type Command } from 'commander';
import { readFileSync } from 'node:fs';
import { runTotal, trajectories, withAdvantages, type TraceEvent, type TrajectoryOptions } from '../../core/index';
import { readStoredTrace } from '../../adapters/node/trace-file';
import { AtomicFile } from '../../adapters/node/files';
import { traceFiles } from './report';

export interface ExportOptions extends TrajectoryOptions {
  /** Only runs that reached their horizon. */
  completeOnly?: boolean;
}

/** Writes the trajectory lines of every trace to `write` (one JSON line each); returns counts. */
export function exportTrajectories(paths: readonly string[], o: ExportOptions, write: (line: string) => void): { runs: number; skipped: { path: string; why: string }[]; lines: number } {
  const files = traceFiles(paths);
  const skipped: { path: string; why: string }[] = [];
  let runs = 0;
  let lines = 0;
  // The same run found twice (a trace and its judged copy) counts once, as in `report`: the copy with more events.
  const keep = new Map<string, { file: string; n: number }>();
  const keyOf = new Map<string, string>();
  for (const f of files) {
    try {
      const ev = readStoredTrace(f).events;
      const s = ev[0];
      if (s?.type !== 'run_start') continue;
      const key = JSON.stringify([s.runId, s.tutor, s.voice ?? null, s.tracer.name]);
      keyOf.set(f, key);
      const prev = keep.get(key);
      if (!prev || ev.length > prev.n) keep.set(key, { file: f, n: ev.length });
    } catch {
      // refused below, with its reason
    }
  }
  // Two passes: the first finds the runs to export and their total rewards (advantages compare the
  // runs of one simulated student), the second writes the lines with their advantages.
  const chosen: { file: string; events: TraceEvent[] | null }[] = [];
  const totals = new Map<string, { group: string; total: number }>();
  for (const f of files) {
    const key = keyOf.get(f);
    if (key !== undefined && keep.get(key)!.file !== f) {
      skipped.push({ path: f, why: `the same run as ${keep.get(key)!.file}, which holds more events (counted once)` });
      continue;
    }
    let events: TraceEvent[];
    try {
      events = readStoredTrace(f).events;
    } catch (e) {
      skipped.push({ path: f, why: e instanceof Error ? e.message : String(e) });
      continue;
    }
    if (events[0]?.type !== 'run_start') {
      skipped.push({ path: f, why: 'not a trace (no run_start)' });
      continue;
    }
    const end = events.find((e) => e.type === 'run_end');
    if (o.completeOnly && !(end?.type === 'run_end' && end.reason === 'horizon_reached')) {
      skipped.push({ path: f, why: `did not reach its horizon (${end?.type === 'run_end' ? end.reason : 'no run_end'})` });
      continue;
    }
    runs++;
    const got = trajectories(events, o);
    if (got[0]) totals.set(got[0].sample_id, { group: got[0].group, total: runTotal(got) });
    // Small exports keep the events for the second pass; large ones read the trace again.
    chosen.push({ file: f, events: chosen.length < 64 ? events : null });
  }
  for (const c of chosen) {
    const events = c.events ?? readStoredTrace(c.file).events;
    for (const line of withAdvantages(trajectories(events, o), totals)) {
      write(JSON.stringify(line));
      lines++;
    }
  }
  return { runs, skipped, lines };
}

export function registerExportTrajectories(program: Command): void {
  program
    .command('export-trajectories')
    .argument('<runs...>', 'trace files, or directories searched for *.jsonl (a sweep\'s output, say)')
    .description(
      "Write the tutor's side of runs as training data: JSONL in the common chat format (OpenAI messages: system, user = each wake as an LLM tutor reads it, assistant with tool_calls, tool results), one line per turn or per run, with signals to build rewards from (per turn: actions, leakage, help answered, the learner's next step; per day: probe solve rates and gain, judged scores; per run: every axis). Nothing the tutor could not see (mastery, P(correct), probes, the persona) is in the messages. Format: docs/bring-your-own-tutor.md#trajectories.",
    )
    .addOption(new Option('--per <unit>', 'one line per turn or per run').choices(['turn', 'run']).default('turn'))
    .option('--out <file>', 'write here (default: stdout)')
    .option('--system <file>', "the system message (default: the LLM tutors' system prompt for the run's horizon)")
    .option('--complete-only', 'only runs that reached their horizon')
    .addOption(new Option('--form <form>', 'messages: one messages list per line; prompt-completion: per turn, prompt (system and user) and completion (the tutor\'s messages) with a KTO label (TRL\'s GRPO and KTO trainers)').choices(['messages', 'prompt-completion']).default('messages'))
    .option('--one-call-per-message', 'split an assistant message with several tool calls into one per call, each followed by its result (chat templates that take one call per message, Llama 3.1 style)')
    .action((paths: string[], o: { per: 'turn' | 'run'; out?: string; system?: string; completeOnly?: boolean; oneCallPerMessage?: boolean; form: 'messages' | 'prompt-completion' }) => {
      if (o.form === 'prompt-completion' && o.per === 'run') throw new Error('--form prompt-completion is one line per turn (a run has many prompts): give no --per run');
      const system = o.system ? readFileSync(o.system, 'utf8').trim() : undefined;
      // --out is replaced only by the whole new export (AtomicFile): on a full disk or a kill, the previous export stays as it was.
      const file = o.out ? new AtomicFile(o.out) : null;
      const write = file ? (l: string) => file.write(l + '\n') : (l: string) => process.stdout.write(l + '\n');
      let res;
      try {
        res = exportTrajectories(paths, { per: o.per, ...(system ? { system } : {}), ...(o.completeOnly ? { completeOnly: true } : {}), ...(o.oneCallPerMessage ? { oneCallPerMessage: true } : {}), ...(o.form === 'prompt-completion' ? { form: 'prompt_completion' as const } : {}) }, write);
        file?.commit();
      } catch (e) {
        file?.abort();
        throw e;
      }
      for (const s of res.skipped) console.error(`skipped ${s.path}: ${s.why}`);
      console.error(`${res.lines} ${o.per === 'run' ? 'runs' : 'turns'} from ${res.runs} trace${res.runs === 1 ? '' : 's'}${o.out ? ` -> ${o.out}` : ''}`);
      if (res.runs === 0) process.exitCode = 1;
    });
}
