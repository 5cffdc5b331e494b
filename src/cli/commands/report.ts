/**
 * `report`: the results report of a set of traces (a sweep's or benchmark's output directory, any
 * directory of traces, or trace files): every analysis of docs/analyses.md as Markdown with SVG
 * plots (or one self-contained HTML page), one CSV per table, and report.json with the analyses.
 *
 *   npm run cli -- report runs/bench [--out runs/bench/report] [--format md|html|both] [--pass '<rule>'] [--rank-axis learningGain]
 *
 * Directories are searched recursively for *.jsonl. The same run found twice (a trace and its
 * judged copy: same run id, tutor, voice and learner model) counts once: the copy with more events.
 */
import type { Command } from 'commander';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { AXES, CONTROL_TUTOR, REFERENCE_TUTOR, controlRecord, parseJsonl, recordFromTrace, runIdOf, type AxisId, type TraceEvent } from '../../core/index';
import { DEFAULT_PASS_RULE, allPlots, buildBenchmarkReport, digestRun, parsePassRule, reportCsvFiles, reportHtml, reportMarkdown, type RunDigest } from '../../core/analysis/index';
import { readStoredTrace } from '../../adapters/node/trace-file';
import { isZip, zippedTraces } from './zip-traces';
import { replaceDirAtomic } from '../../adapters/node/files';

/** What a report directory holds (anything else there: the directory is not replaced). */
const REPORT_ENTRIES = new Set(['report.md', 'report.html', 'report.json', 'csv', 'svg']);
import { plotSvgs } from '../../adapters/plot/vega';
import { DEFAULT_CONTROL_CACHE, cachedControl, controlPath, ensureControl } from '../../adapters/node/controls';

/** The .jsonl files of the inputs: a file as given, a directory searched recursively (sorted). */
export function traceFiles(paths: readonly string[], skip: string | null = null): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (skip && resolve(dir) === resolve(skip)) return;
    for (const n of readdirSync(dir).sort()) {
      const p = join(dir, n);
      const st = statSync(p);
      if (st.isDirectory()) {
        if (n !== 'node_modules' && !n.startsWith('.')) walk(p);
      } else if (n.endsWith('.jsonl')) {
        if (!st.isFile()) throw new Error(`${p} is not a regular file (a FIFO, socket or device): refused rather than waiting on it`);
        out.push(p);
      }
    }
  };
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new Error(`no such file or directory: ${p}`);
    }
    if (st.isDirectory()) walk(p);
    else if (!st.isFile()) throw new Error(`${p} is not a regular file (a FIFO, socket or device): refused rather than waiting on it`);
    else out.push(p);
  }
  return [...new Set(out)];
}

const shellQuote = (s: string) => (/^[\w./:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export interface ReportCliOptions {
  out?: string;
  format?: string;
  pass?: string;
  rankAxis?: string;
  /** Run the no-tutor controls not cached yet (else only cached ones are used). */
  controls?: boolean;
  controlCache?: string;
  llmConfig?: string[];
}

/** Reads, digests (one trace in memory at a time) and reports; returns what it wrote. */
export async function writeReport(paths: readonly string[], o: ReportCliOptions, log: (s: string) => void = console.error): Promise<{ out: string; files: string[]; digests: RunDigest[]; plots: number }> {
  const format = o.format ?? 'md';
  if (!['md', 'html', 'both'].includes(format)) throw new Error(`--format must be md, html or both, got "${format}"`);
  const rankAxis = (o.rankAxis ?? 'learningGain') as AxisId;
  if (!AXES.some((a) => a.id === rankAxis)) throw new Error(`--rank-axis: unknown axis "${rankAxis}" (axes: ${AXES.map((a) => a.id).join(', ')})`);
  const rule = parsePassRule(o.pass ?? DEFAULT_PASS_RULE);
  for (const p of paths) if (!existsSync(p)) throw new Error(`no such file or directory: ${p}`);
  const firstIsDir = paths.length === 1 && statSync(paths[0]!).isDirectory();
  const out = o.out ?? (firstIsDir ? join(paths[0]!, 'report') : 'report');
  // A benchmark exported from the page is a zip (benchmark.json + traces/): its traces are read from it.
  const zips = paths.filter(isZip);
  const files = traceFiles(paths.filter((p) => !zips.includes(p)), out);
  const zipped = zips.flatMap((z) => zippedTraces(z));
  if (files.length === 0 && zipped.length === 0) throw new Error(`no .jsonl traces in ${paths.join(', ')}`);
  const byKey = new Map<string, { digest: RunDigest; events: number; file: string }>();
  // Yardsticks on the same student: the no-tutor control (silent: value added) and the oracle (the
  // steady-learning reference). Cached ones are always used, missing ones run with --controls.
  const cache = o.controlCache ?? DEFAULT_CONTROL_CACHE;
  const YARDSTICKS = [CONTROL_TUTOR, REFERENCE_TUTOR] as const;
  const pending = new Map<string, { head: TraceEvent[]; source: string; tutor: string }>();
  const controls = new Map<string, { events: TraceEvent[] | null; source: string; tutor: string }>();
  const yardstickRuns = new Set<string>();
  let controlsRan = 0;
  let controlsMissing = 0;
  const sources: { file: string; read: () => { events: TraceEvent[]; cutLine: boolean } }[] = [...files.map((f) => ({ file: f, read: () => readStoredTrace(f) })), ...zipped];
  for (const { file: f, read } of sources) {
    const t = read();
    if (t.events.length === 0 || t.events[0]!.type !== 'run_start') {
      log(`warning: ${f}: not a trace (no run_start), skipped`);
      continue;
    }
    if (t.cutLine) log(`warning: ${f}: its last line was cut short (a killed writer); reporting what it holds`);
    const d = digestRun({ events: t.events });
    if ((YARDSTICKS as readonly string[]).includes(d.tutorName)) yardstickRuns.add(d.runId);
    if (!d.field) {
      // Only run_start is needed to find (or run) a yardstick: keep it, not the trace.
      const head = [t.events[0]!];
      for (const tutor of YARDSTICKS) {
        if (d.tutorName === tutor) continue;
        const where = controlPath(head, cache, f, tutor);
        if ('path' in where && !pending.has(where.path)) pending.set(where.path, { head, source: f, tutor });
      }
    }
    const key = [d.runId, d.tutor, d.voice, d.tracer].join('\u0000');
    const prev = byKey.get(key);
    if (prev) {
      const keep = t.events.length > prev.events ? { digest: d, events: t.events.length, file: f } : prev;
      log(`warning: ${d.runId} (${d.tutor}) is in ${prev.file} and ${f}; using ${keep.file} (more events: judged)`);
      byKey.set(key, keep);
    } else byKey.set(key, { digest: d, events: t.events.length, file: f });
  }
  for (const [path, p] of pending) {
    if (yardstickRuns.has(runIdOf(controlRecord(recordFromTrace(p.head, p.source), p.tutor)))) continue; // the set has it
    let events = cachedControl(p.head, cache, p.source, p.tutor);
    if (!events && o.controls) {
      events = (await ensureControl(p.head, cache, { llmConfig: o.llmConfig ?? [] }, p.source, p.tutor)).events;
      controlsRan++;
    }
    controls.set(path, { events, source: p.source, tutor: p.tutor });
  }
  for (const [path, c] of controls) {
    if (!c.events) {
      controlsMissing++;
      continue;
    }
    const d = digestRun({ events: c.events });
    const key = [d.runId, d.tutor, d.voice, d.tracer].join('\u0000');
    if (!byKey.has(key)) byKey.set(key, { digest: d, events: c.events.length, file: path });
  }
  if (controlsRan) log(`ran ${controlsRan} yardstick run${controlsRan === 1 ? '' : 's'} (no-tutor controls and ${REFERENCE_TUTOR} references on the same students; cached in ${cache})`);
  for (const tutor of YARDSTICKS) {
    const uncovered = [...controls.values()].filter((c) => c.tutor === tutor && !c.events).length;
    if (controlsMissing && uncovered) log(`${uncovered} run${uncovered === 1 ? ' has' : 's have'} no ${tutor === CONTROL_TUTOR ? 'no-tutor control' : `${tutor} run (the steady-learning reference)`} cached in ${cache} and none in the traces given: their ${tutor === CONTROL_TUTOR ? 'value added' : 'reference'} is n/a; --controls runs them (once, cached)`);
  }
  const digests = [...byKey.values()].map((x) => x.digest);
  if (digests.length === 0) throw new Error('no traces to report');
  const command = ['npm run cli -- report', ...paths.map(shellQuote), ...(o.controls ? ['--controls'] : []), ...(o.controlCache && o.controlCache !== DEFAULT_CONTROL_CACHE ? ['--control-cache', shellQuote(o.controlCache)] : []), ...(o.out ? ['--out', shellQuote(o.out)] : []), ...(format !== 'md' ? ['--format', format] : []), '--pass', shellQuote(rule.text), ...(rankAxis !== 'learningGain' ? ['--rank-axis', rankAxis] : [])].join(' ');
  const report = buildBenchmarkReport(digests, { passRule: rule.text, rankAxis, command });
  const svgs = await plotSvgs(allPlots(report));
  // The report directory is replaced as a whole (adapters/node/files.ts, replaceDirAtomic): killed or on a full disk, it holds the old report or the new one, never a mix.
  const written: string[] = [];
  await replaceDirAtomic(out, (n) => REPORT_ENTRIES.has(n), (staging) => {
    mkdirSync(join(staging, 'csv'), { recursive: true });
    const write = (rel: string, text: string) => {
      try {
        writeFileSync(join(staging, rel), text);
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        throw new Error(`could not write ${join(out, rel)}: ${err.code ? `${err.code}: ` : ''}${err.message}`);
      }
      written.push(rel);
    };
    for (const c of reportCsvFiles(report)) write(c.path, c.text);
    if (format === 'md' || format === 'both') {
      mkdirSync(join(staging, 'svg'), { recursive: true });
      for (const p of allPlots(report)) write(`svg/${p.id}.svg`, svgs.get(p.id)!);
      write('report.md', reportMarkdown(report));
    }
    if (format === 'html' || format === 'both') write('report.html', reportHtml(report, { svg: (p) => svgs.get(p.id) }));
    write('report.json', JSON.stringify({ title: report.title, command: report.command, options: report.options, analyses: report.analyses, traces: [...byKey.values()].map((x) => relative(out, x.file)).sort() }, null, 2) + '\n');
  });
  return { out, files: written, digests, plots: allPlots(report).length };
}

export function registerReport(program: Command): void {
  program
    .command('report')
    .description('The results report of a set of traces: axes per tutor, learning curves with the steady-learning reference, trade-offs, model × harness rankings, failure modes, pass^k, action kinds, axis correlations (docs/analyses.md). Markdown + SVG or HTML, and CSV for every table.')
    .argument('<paths...>', 'a sweep or benchmark output directory, any directory of .jsonl traces (searched recursively), or trace files')
    .option('--out <dir>', 'where to write the report (default: <dir>/report for one directory, else ./report)')
    .option('--format <md|html|both>', 'report.md with svg/ (md), one self-contained report.html (html), or both', 'md')
    .option('--pass <rule>', `pass rule of pass^k: clauses "<axis> <op> <number>" joined by && (axes ${AXES.map((a) => a.id).join(', ')})`, DEFAULT_PASS_RULE)
    .option('--rank-axis <axis>', 'the axis of the model × harness table', 'learningGain')
    .option('--controls', 'run the yardsticks of every run that has none in the traces or the cache: the no-tutor control (the silent tutor on the same student: value added) and the oracle (the steady-learning reference); each runs once and is cached')
    .option('--control-cache <dir>', 'where no-tutor controls are cached (cached ones are always used)', DEFAULT_CONTROL_CACHE)
    .option('--llm-config <file...>', 'LLM config, for the controls of runs with an LLM student voice')
    .action(async (paths: string[], o: ReportCliOptions) => {
      const r = await writeReport(paths, o);
      const tutors = new Set(r.digests.map((d) => d.tutor));
      const svg = r.files.filter((f) => f.startsWith('svg/')).length;
      console.log(`${r.digests.length} runs of ${tutors.size} tutor${tutors.size === 1 ? '' : 's'} -> ${r.out}: ${r.files.filter((f) => f.startsWith('report.')).join(', ')}, ${r.files.filter((f) => f.startsWith('csv/')).length} CSV tables, ${svg ? `${svg} SVG plots` : `${r.plots} plots inline`}`);
    });
}
