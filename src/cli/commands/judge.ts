/**
 * `judge`: score stored traces with an LLM judge panel, offline (the runs are not re-run). The
 * verdicts are appended to each trace after run_end (replacing any earlier panel's), with rubric
 * versions and models; the axis table, judge agreement across the traces and the cost follow.
 */
import type { Command } from 'commander';
import { basename, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { agreementReport, formatAgreement, formatAxisTable, judgeTrace, scoreTrace, toJsonl, withVerdicts, type JudgeSpec, type RubricId, RUBRIC_IDS } from '../../core/index';
import { readTraceFile, writeFileAtomic } from '../../adapters/node/files';
import { readStoredTrace } from '../../adapters/node/trace-file';
import { loadLlmConfig, makeClient } from '../../adapters/node/llm-config';
import { findProvider, panelWarnings } from '../../adapters/llm/config';

export function registerJudge(program: Command): void {
  program
    .command('judge')
    .description('Judge stored traces with an LLM panel; verdicts are stored with each trace (after run_end).')
    .argument('<traces...>', 'trace files (JSONL)')
    .requiredOption('--panel <file>', 'panel config (JSON/YAML): judges [{provider, model, family?}], temperature, daysPerRun, …; may include providers')
    .option('--llm-config <file>', 'providers, if not in the panel file (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--days <n>', 'days judged per run ("all" for every day); overrides the panel file')
    .option('--rubrics <list>', `comma-separated subset of ${RUBRIC_IDS.join(', ')}`)
    .option('--out-dir <dir>', 'write judged traces here (default: rewrite each trace in place)')
    .option('--json', 'print the score reports and agreement as JSON')
    .action(async (files: string[], o: { panel: string; llmConfig?: string[]; days?: string; rubrics?: string; outDir?: string; json?: boolean }) => {
      const cfg = loadLlmConfig([...(o.llmConfig ?? []), o.panel]);
      const panel = cfg.panel;
      if (!panel) throw new Error(`${o.panel} has no panel (a "judges" list)`);
      if (o.days) panel.daysPerRun = o.days === 'all' ? null : Number(o.days);
      if (panel.daysPerRun !== null && (!Number.isInteger(panel.daysPerRun) || panel.daysPerRun < 1)) throw new Error('--days must be a positive integer or "all"');
      if (o.rubrics) {
        const list = o.rubrics.split(',').map((s) => s.trim());
        const bad = list.filter((r) => !(RUBRIC_IDS as readonly string[]).includes(r));
        if (bad.length) throw new Error(`unknown rubric(s): ${bad.join(', ')} (rubrics: ${RUBRIC_IDS.join(', ')})`);
        panel.rubrics = list as RubricId[];
      }
      for (const w of panelWarnings(panel, cfg.providers)) console.error(`warning: ${w}`);
      const judges: JudgeSpec[] = panel.judges.map((j) => {
        const p = findProvider(cfg.providers, j.provider);
        return { id: j.id ?? `${j.model}@${p.name}`, client: makeClient(p, j.model, j.family ? { family: j.family } : {}) };
      });
      const ac = new AbortController();
      const onSigint = () => ac.abort();
      process.once('SIGINT', onSigint);
      const judged: { runId: string; events: ReturnType<typeof withVerdicts> }[] = [];
      let totalCost: number | null = null;
      let tokensIn = 0;
      let tokensOut = 0;
      try {
        for (const f of files) {
          const t = readTraceFile(f);
          if (!t.complete) throw new Error(`${f} has no run_end (the run was cut short); judge finished runs only`);
          // The run's own lines are kept byte for byte (never re-serialised: bytes that are not UTF-8 stay as they were); the verdicts follow.
          const stored = readStoredTrace(f);
          const endAt = stored.events.findIndex((e) => e.type === 'run_end');
          const ownBytes = readFileSync(f).subarray(0, stored.offsets[endAt + 1]!);
          const res = await judgeTrace(t.events, { ...panel, judges }, {
            signal: ac.signal,
            onProgress: (p) => {
              if (!o.json && process.stderr.isTTY) process.stderr.write(`\r${basename(f)}: ${p.done}/${p.total} verdicts`);
            },
          });
          if (!o.json && process.stderr.isTTY) process.stderr.write('\n');
          const events = withVerdicts(t.events, res.events);
          const out = o.outDir ? join(o.outDir, basename(f)) : f;
          writeFileAtomic(out, [ownBytes, ...(ownBytes.length && ownBytes[ownBytes.length - 1] !== 0x0a ? ['\n'] : []), toJsonl(events.slice(endAt + 1))]);
          judged.push({ runId: (events[0] as { runId: string }).runId, events });
          if (res.cost !== null) totalCost = (totalCost ?? 0) + res.cost;
          tokensIn += res.usage?.promptTokens ?? 0;
          tokensOut += res.usage?.completionTokens ?? 0;
          for (const s of res.stopped) console.error(`warning: ${f}: ${s.judge}: ${s.reason}`);
          if (!o.json) console.error(`${f}: ${res.scored} verdicts scored, ${res.unscored} unscored -> ${out}`);
        }
      } finally {
        process.off('SIGINT', onSigint);
      }
      const reports = judged.map((j) => scoreTrace(j.events));
      const agreement = agreementReport(judged);
      if (o.json) {
        console.log(JSON.stringify({ reports: reports.map((r) => ({ runId: r.runId, tutor: r.tutor, judged: r.judged, details: { judged: r.details.judged } })), agreement, usage: { promptTokens: tokensIn, completionTokens: tokensOut, cost: totalCost } }, null, 2));
        return;
      }
      console.log(formatAxisTable(reports));
      console.log('');
      console.log(formatAgreement(agreement));
      console.log(`\nJudge tokens: ${tokensIn} in, ${tokensOut} out; cost ${totalCost === null ? 'unknown (no prices configured)' : `$${totalCost.toFixed(4)}`}`);
    });
}
