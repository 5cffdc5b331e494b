import type { Command } from 'commander';
import { formatAxisTable, reportJson, scoreTrace, warningLines, withControl, type ScoreReport, type TraceEvent } from '../../core/index';
import { readTraceFile } from '../../adapters/node/files';
import { DEFAULT_CONTROL_CACHE, cachedControl, controlPath, ensureControl } from '../../adapters/node/controls';
import { addKtRuntimeOption } from './kt-runtime';
import { isZip, zippedTraces } from './zip-traces';

interface ScoreCliOptions {
  json?: boolean;
  controls?: boolean;
  controlCache?: string;
  llmConfig?: string[];
}

export function registerScore(program: Command): void {
  const cmd = program
    .command('score')
    .description('Score traces on the deterministic axes (judged axes stay "unscored" until judged), with value added over the no-tutor control on the same student when that control has been run (--controls runs it once and caches it).')
    .argument('<traces...>', 'trace files (JSONL), or zips with traces/*.jsonl (a page benchmark, a classroom study export)')
    .option('--json', 'print one JSON object per trace (a JSON array when several)')
    .option('--controls', 'run the no-tutor control (the silent tutor on the same student) of each trace that has none cached yet')
    .option('--control-cache <dir>', 'where no-tutor controls are cached', DEFAULT_CONTROL_CACHE)
    .option('--llm-config <file...>', 'LLM config, for the control of a run with an LLM student voice');
  addKtRuntimeOption(cmd).action(async (files: string[], o: ScoreCliOptions) => {
    const cache = o.controlCache ?? DEFAULT_CONTROL_CACHE;
    // A zip (a study export, a page benchmark) stands for the traces in it.
    type Source = { file: string; read: () => { events: TraceEvent[]; complete: boolean | null } };
    const sources = files.flatMap<Source>((f) => (isZip(f) ? zippedTraces(f).map((z) => ({ file: z.file, read: () => ({ events: z.read().events, complete: null }) })) : [{ file: f, read: () => readTraceFile(f) }]));
    if (sources.length === 0) throw new Error(`no traces in ${files.join(', ')}`);
    const reports: ScoreReport[] = [];
    for (const { file: f, read } of sources) {
      const t = read();
      const complete = t.complete ?? t.events.at(-1)?.type === 'run_end';
      if (!complete) console.error(`warning: ${f} has no run_end event (the run was cut short); scoring what it holds`);
      const r = scoreTrace(t.events);
      if (r.valueAdded) {
        reports.push(r); // the silent tutor: its own control
        continue;
      }
      const where = controlPath(t.events, cache, f);
      if (!('path' in where)) {
        reports.push({ ...withControl(r, null), valueAdded: { value: null, controlRunId: null, controlGain: null, through: null, reason: where.reason } });
        continue;
      }
      let control = cachedControl(t.events, cache, f);
      if (!control && o.controls) {
        const c = await ensureControl(t.events, cache, { llmConfig: o.llmConfig ?? [] }, f);
        console.error(`${f}: ran its no-tutor control -> ${c.path}`);
        control = c.events;
      }
      if (!control) console.error(`${f}: no no-tutor control cached in ${cache}; --controls runs it (a few seconds) for value added`);
      reports.push(withControl(r, control ? scoreTrace(control) : null));
    }
    if (o.json) {
      // Every axis the report has, from the axis table (core/scoring/axes.ts).
      const out = reports.map(reportJson);
      console.log(JSON.stringify(out.length === 1 ? out[0] : out, null, 2));
    } else {
      console.log(formatAxisTable(reports));
    }
    for (const r of reports) for (const line of warningLines(r)) console.error(line);
  });
}
