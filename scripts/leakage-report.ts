/**
 * Leakage under the declared matcher (before: declared digits and phrases plus number words,
 * `{ matcher: 'declared', words: true }`) and under the disclosure detector (after: the scorer's
 * default, src/core/leakage) on the same traces, as Markdown tables (docs/metrics.md, "Answer
 * leakage"). The detector's own corpus table is `npm run report:leakage-corpus`.
 *
 *   npm run report:leakage -- [--seeds 1] [--tracer akt|bkt] [--llm-horizon 30] [--bank-seeds 10] [--examples 5]
 *   npm run report:leakage -- --traces runs/my-sweep/traces [--traces …]   (only: score stored traces, e.g. a real model's)
 *
 *  1. the reference tutors (answer-giver, withholder, planner) on the 55 library scenarios;
 *  2. the LLM tutor (reactive, notes and curriculum harnesses) against the scripted
 *     chat-completions server (src/testing/mock-openai-server.ts, policyReply), started here, on
 *     the 55 library scenarios with the BKT learner;
 *  3. the item bank's own texts (every skill × level × --bank-seeds seeds): stems and hints,
 *     which must reveal nothing (a hit there is a false positive of the matcher or an item that
 *     gives its answer away in words), and the last worked step, which states the answer.
 * Every text the detector adds is listed (up to --examples per group) so each can be judged by eye.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, readTraceFile } from '../src/adapters/node/files';
import { runNodeSweep } from '../src/adapters/node/sweep/run-sweep';
import { startMockOpenAi } from '../src/testing/mock-openai-server';
import { sampleItem } from '../src/core/course/inspect';
import { findAnswerForms } from '../src/core/course/answer-forms';
import { disclosuresIn } from '../src/core/leakage/detect';
import { answerExtraction, leakage, libraryEntries, parseSeedList, type LeakOptions, type TraceEvent } from '../src/core/index';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1' },
    tracer: { type: 'string', default: 'akt' },
    'llm-horizon': { type: 'string', default: '30' },
    'bank-seeds': { type: 'string', default: '10' },
    examples: { type: 'string', default: '5' },
    traces: { type: 'string', multiple: true },
  },
});
const posInt = (name: string, v: string | undefined) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${v}`);
  return n;
};
const seeds = parseSeedList(values.seeds!);
const llmHorizon = posInt('llm-horizon', values['llm-horizon']);
const bankSeeds = posInt('bank-seeds', values['bank-seeds']);
const maxExamples = posInt('examples', values.examples);
/** Before: the declared matcher (digits, phrases, number words); after: the disclosure detector (src/core/leakage). */
const BEFORE: LeakOptions = { matcher: 'declared', words: true };
const AFTER: LeakOptions = { matcher: 'detector' };
const files = libraryEntries().map((e) => resolve(ROOT, 'scenarios', e.file));

interface Tally {
  runs: number;
  turns: number;
  leakingTurns: [number, number];
  leakingMessages: [number, number];
  extractionAttempts: number;
  extractionYielded: [number, number];
  /** Messages that leak only with words: the text and what matched. */
  added: { text: string; hits: string[] }[];
}
const tally = (): Tally => ({ runs: 0, turns: 0, leakingTurns: [0, 0], leakingMessages: [0, 0], extractionAttempts: 0, extractionYielded: [0, 0], added: [] });

function count(t: Tally, events: readonly TraceEvent[]): void {
  t.runs++;
  const [b, a] = [leakage(events, BEFORE), leakage(events, AFTER)];
  t.turns += b.detail.tutorTurns;
  t.leakingTurns[0] += b.detail.leakingTurns;
  t.leakingTurns[1] += a.detail.leakingTurns;
  t.leakingMessages[0] += b.detail.leaks.length;
  t.leakingMessages[1] += a.detail.leaks.length;
  const [eb, ea] = [answerExtraction(events, BEFORE), answerExtraction(events, AFTER)];
  t.extractionAttempts += eb.detail.attempts;
  t.extractionYielded[0] += eb.detail.succeeded;
  t.extractionYielded[1] += ea.detail.succeeded;
  const before = new Set(b.detail.leaks.map((l) => l.seq));
  for (const l of a.detail.leaks) {
    if (before.has(l.seq)) continue;
    const e = events.find((x) => x.seq === l.seq);
    const text = e?.type === 'message' ? e.text : e?.type === 'tool_call' ? String((e.args as { note?: unknown }).note) : '';
    const hits = (a.detail.disclosures ?? []).filter((d) => d.seq === l.seq).map((d) => `${d.itemId}: ${JSON.stringify(d.span)} (${d.rule}${d.spans ? `, across ${d.spans + 1} texts` : ''})`);
    t.added.push({ text, hits });
  }
}

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);
const pair = (x: [number, number], d: number) => `${x[0]} → ${x[1]} (+${x[1] - x[0]}) | ${pct(x[0], d)} → ${pct(x[1], d)}`;

function table(title: string, rows: [string, Tally][]): void {
  console.log(`\n### ${title}\n`);
  console.log('| tutor | runs | tutor turns | leaking turns before → after | leakage before → after | leaking messages before → after | extraction attempts | yielded before → after |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [name, t] of rows) {
    console.log(`| ${name} | ${t.runs} | ${t.turns} | ${pair(t.leakingTurns, t.turns)} | ${t.leakingMessages[0]} → ${t.leakingMessages[1]} (+${t.leakingMessages[1] - t.leakingMessages[0]}) | ${t.extractionAttempts} | ${t.extractionYielded[0]} → ${t.extractionYielded[1]} |`);
  }
  for (const [name, t] of rows) {
    if (!t.added.length) continue;
    console.log(`\nTexts of ${name} that leak only under the detector (${t.added.length}; first ${Math.min(maxExamples, t.added.length)}):`);
    for (const x of t.added.slice(0, maxExamples)) console.log(`- ${JSON.stringify(x.text.slice(0, 200))} — ${x.hits.join('; ')}`);
  }
}

/** Every trace under the directories, scored by tutor label (llm/<harness>/<model> for LLM tutors). */
function scoreDirs(dirs: readonly string[]): Map<string, Tally> {
  const out = new Map<string, Tally>();
  for (const dir of dirs) {
    const names = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();
    if (names.length === 0) throw new Error(`--traces ${dir}: no .jsonl traces in it`);
    for (const f of names) {
      const { events } = readTraceFile(join(dir, f));
      const start = events[0];
      if (start?.type !== 'run_start') throw new Error(`${join(dir, f)}: the first event is not run_start`);
      const t = start.tutor;
      const c = t.config as { harness?: string; model?: string };
      const name = t.name === 'llm' ? `llm/${String(c.harness)}${c.model ? `/${c.model}` : ''}` : t.name;
      if (!out.has(name)) out.set(name, tally());
      count(out.get(name)!, events);
    }
  }
  return out;
}

async function sweep(dir: string, tutors: { name: string; config: Record<string, unknown> }[], base: Record<string, unknown>, llmConfig?: string[]): Promise<Map<string, Tally>> {
  const res = await runNodeSweep({ files, base, tutors, seeds, threads: 2, concurrency: 8, outDir: dir, ...(llmConfig ? { llmConfig } : {}) });
  if (res.summary.failed.length) throw new Error(`${res.summary.failed.length} runs failed: ${JSON.stringify(res.summary.failed.slice(0, 3))}`);
  return scoreDirs([join(dir, 'traces')]);
}

const t0 = performance.now();
if (values.traces?.length) {
  table(`Stored traces (${values.traces.join(', ')})`, [...scoreDirs(values.traces.map((d) => resolve(d))).entries()]);
  console.log(`\n${((performance.now() - t0) / 1000).toFixed(0)} s`);
  process.exit(0);
}
const tmp = mkdtempSync(join(tmpdir(), 'educlaw-leakage-'));
try {
  console.log(`Leakage before and after the disclosure detector: ${files.length} library scenarios, seeds ${values.seeds}; before = the declared matcher (digits, phrases and number words on token boundaries), after = the disclosure detector (src/core/leakage).`);

  const ref = await sweep(join(tmp, 'ref'), ['answer-giver', 'withholder', 'planner'].map((name) => ({ name, config: {} })), { tracer: values.tracer });
  table(`Reference tutors (${values.tracer.toUpperCase()} learner, 30 days)`, [...ref.entries()]);

  const srv = await startMockOpenAi();
  try {
    const cfg = join(tmp, 'llm.yaml');
    writeFileSync(cfg, `providers:\n  - name: scripted\n    baseURL: ${srv.url}\n    maxConcurrency: 8\n    timeoutMs: 600000\n`);
    const llm = await sweep(
      join(tmp, 'llm'),
      ['reactive', 'notes', 'curriculum'].map((harness) => ({ name: 'llm', config: { harness, model: 'scripted-tutor', provider: 'scripted' } })),
      { tracer: 'bkt', horizonDays: llmHorizon },
      [cfg],
    );
    table(`LLM tutor against the scripted server (BKT learner, ${llmHorizon} days; ${srv.requests.length} model calls)`, [...llm.entries()]);
  } finally {
    await srv.close();
  }

  // The item bank's texts: what must not reveal (stems, hints) and what states the answer (the last step).
  const bank = { items: 0, withNumeric: 0, stems: [0, 0], hints: [0, 0], hintCount: 0, lastStep: [0, 0], flagged: [] as string[] };
  for (let skill = 1; skill <= 110; skill++) {
    for (const level of [1, 2, 3] as const) {
      for (let seed = 1; seed <= bankSeeds; seed++) {
        const it = sampleItem(skill, level, seed);
        bank.items++;
        if (it.answerForms.numeric.length) bank.withNumeric++;
        const hit = (text: string, o: LeakOptions) => (o.matcher === 'declared' ? findAnswerForms(text, it.answerForms, { words: true }) : disclosuresIn(text, [it]).map((d) => d.span));
        for (const [k, o] of [BEFORE, AFTER].entries()) {
          if (hit(it.stem, o).length) bank.stems[k]!++;
          for (const h of it.hints) if (hit(h, o).length) bank.hints[k]!++;
          if (hit(it.steps[it.steps.length - 1] ?? '', o).length) bank.lastStep[k]!++;
        }
        bank.hintCount += it.hints.length;
        for (const text of [it.stem, ...it.hints]) {
          const extra = hit(text, AFTER).filter((h) => !hit(text, BEFORE).includes(h));
          if (extra.length && bank.flagged.length < maxExamples) bank.flagged.push(`skill ${skill} level ${level} seed ${seed}: ${JSON.stringify(text.slice(0, 160))} — ${extra.join('; ')}`);
        }
      }
    }
  }
  console.log(`\n### The item bank's texts (110 skills × 3 levels × ${bankSeeds} seeds = ${bank.items} items, ${bank.withNumeric} with numeric forms)\n`);
  console.log('| text | count | flagged before → after |');
  console.log('|---|---|---|');
  console.log(`| stems (must reveal nothing) | ${bank.items} | ${bank.stems[0]} → ${bank.stems[1]} |`);
  console.log(`| hints (must reveal nothing) | ${bank.hintCount} | ${bank.hints[0]} → ${bank.hints[1]} |`);
  console.log(`| last worked step (states the answer) | ${bank.items} | ${bank.lastStep[0]} → ${bank.lastStep[1]} |`);
  if (bank.flagged.length) {
    console.log(`\nStems and hints flagged only by the detector (first ${bank.flagged.length}):`);
    for (const f of bank.flagged) console.log(`- ${f}`);
  }
  console.log(`\n${((performance.now() - t0) / 1000).toFixed(0)} s`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
