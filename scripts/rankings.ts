/**
 * How consistently the benchmark ranks tutors (docs/validity.md, "Rankings"): reads the
 * summary.json of one or more sweeps (`npm run cli -- sweep ... --out <dir>`; any engine whose
 * sweep writes per-run summaries with `axes.learningGain`), and for each learner model (tracer) in
 * them ranks the reference tutors (planner, withholder, answer-giver) and the same with the no-tutor
 * control (silent) on learning gain: order, Kendall's W over scenarios (seed-averaged and single
 * seed, with permutation p and bootstrap interval), per-persona orders, split-seed agreement,
 * neighbours' paired differences, and AKT-vs-BKT agreement when both are there.
 *
 *   npm run cli -- sweep --scenarios 'scenarios/*--*.yaml' --tutor silent --tutor planner \
 *     --tutor withholder --tutor answer-giver --seeds 1-5 --tracer akt --out out/akt
 *   npm run rankings -- out/akt out/bkt [--label "engine 3"] [--json rankings.json] [--drop-failed]
 *
 * A run that did not reach its horizon stops the command (it is not a measurement of the tutor);
 * --drop-failed instead leaves out its scenario × seed for every tutor, and says how many.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { rankingStability, tracerAgreement, type RankingRun, type RankingStability } from '../src/core/analysis/rankings';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { label: { type: 'string', default: '' }, json: { type: 'string' }, 'drop-failed': { type: 'boolean', default: false } } });
if (positionals.length === 0) throw new Error('usage: npm run rankings -- <sweep dir> [<sweep dir> ...] [--label text] [--json out.json] [--drop-failed]');

interface SweepRun {
  scenarioId: string;
  persona: string;
  tracer: string;
  tutor: string;
  seed: number;
  endReason: string | null;
  axes: { learningGain: number | null };
}
const SETS = [
  ['planner', 'withholder', 'answer-giver'],
  ['planner', 'withholder', 'answer-giver', 'silent'],
];
const byTracer = new Map<string, RankingRun[]>();
const failed = new Map<string, Set<string>>(); // tracer → scenario|seed
const all: (SweepRun & { dir: string })[] = [];
for (const dir of positionals) {
  const file = join(dir, 'summary.json');
  if (!existsSync(file)) throw new Error(`${file}: no such file (give the --out directory of a finished sweep)`);
  const json = JSON.parse(readFileSync(file, 'utf8')) as { runs?: SweepRun[] };
  if (!Array.isArray(json.runs)) throw new Error(`${file}: no "runs" array (not a sweep summary)`);
  for (const r of json.runs) all.push({ ...r, dir });
}
for (const r of all) {
  if (r.endReason !== 'horizon_reached' || r.axes.learningGain === null) {
    const what = `${r.dir}: ${r.scenarioId} × ${r.tutor} × seed ${r.seed} ended ${r.endReason}${r.axes.learningGain === null ? ' with no learning gain' : ''}`;
    if (!values['drop-failed']) throw new Error(`${what}; not a measurement over the horizon (--drop-failed leaves its scenario × seed out for every tutor)`);
    const s = failed.get(r.tracer) ?? new Set<string>();
    s.add(`${r.scenarioId}|${r.seed}`);
    failed.set(r.tracer, s);
  }
}
for (const r of all) {
  if (failed.get(r.tracer)?.has(`${r.scenarioId}|${r.seed}`)) continue;
  const xs = byTracer.get(r.tracer) ?? [];
  xs.push({ tutor: r.tutor, scenario: r.scenarioId, persona: r.persona, seed: r.seed, gain: r.axes.learningGain! });
  byTracer.set(r.tracer, xs);
}

const pp = (x: number | null) => (x === null ? '—' : (x * 100).toFixed(3));
const f2 = (x: number | null) => (x === null ? '—' : x.toFixed(2));
const f3 = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const pv = (x: number | null) => (x === null ? '—' : x < 0.001 ? '< 0.001' : x.toFixed(3));
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

const results: Record<string, Record<string, RankingStability>> = {};
const lines: string[] = [`# Rankings${values.label ? `: ${values.label}` : ''}`, '', `Sweeps: ${positionals.join(', ')}. Learning gain in pp/day; W: Kendall's W with scenarios as raters of the tutors (tie-corrected), [95% bootstrap interval over scenarios], p: permutation (2,000).`, ''];
for (const [tracer, runs] of [...byTracer].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const dropped = failed.get(tracer)?.size ?? 0;
  results[tracer] = {};
  const tutorsHere = new Set(runs.map((r) => r.tutor));
  for (const set of SETS) {
    if (!set.every((t) => tutorsHere.has(t))) {
      lines.push(`## ${tracer.toUpperCase()}: ${set.join(', ')}`, '', `Not measured: the sweeps have no runs of ${set.filter((t) => !tutorsHere.has(t)).join(', ')} on ${tracer}.`, '');
      continue;
    }
    const r = rankingStability(runs, set);
    results[tracer][set.join(',')] = r;
    const ps = r.perSeed.map((x) => x.test.w!);
    lines.push(
      `## ${tracer.toUpperCase()}: ${set.join(', ')}`,
      '',
      `${r.scenarios} scenarios × seeds ${r.seeds.join(',')}${dropped ? ` (${dropped} scenario × seed cells left out: a run did not reach its horizon)` : ''}.`,
      '',
      '| measure | value |',
      '|---|---|',
      `| order (mean gain) | ${r.order.replace(/[a-z-]+/g, (t) => `${t} ${pp(r.means[t] ?? null)}`)} |`,
      `| W, seed-averaged | ${f3(r.seedAveraged.w)} [${f3(r.seedAveraged.lo)}, ${f3(r.seedAveraged.hi)}], p ${pv(r.seedAveraged.p)} |`,
      `| W, single seed (mean; per seed) | ${f3(ps.reduce((a, b) => a + b, 0) / ps.length)}; ${r.perSeed.map((x) => `s${x.seed} ${f3(x.test.w)} (p ${pv(x.test.p)})`).join(', ')} |`,
      `| W by seeds averaged, k = 1 … ${r.seeds.length} | ${r.byK.map((x) => `${x.k}: ${f3(x.w)}`).join(', ')} |`,
      `| a scenario's order, same from two disjoint seed sets of k | ${r.splitAgreement.map((x) => `k ${x.k}: ${pct(x.share)} (${x.comparisons})`).join(', ') || '— (needs 2 seeds)'} |`,
      `| single seeds whose overall order is the seed-averaged one | ${r.singleSeedOverall.same} of ${r.singleSeedOverall.of}${Object.keys(r.singleSeedOverall.orders).length > 1 ? ` (${Object.entries(r.singleSeedOverall.orders).map(([o, n]) => `${o}: ${n}`).join('; ')})` : ''} |`,
      `| distinct orders across ${r.perPersona.length} personas | ${r.personaOrders} |`,
      '',
      '| neighbours (overall order) | paired difference [95% CI] | d_z | wins/ties/losses | students for 80% power | seeds at this many scenarios | seeds one scenario needs (median; never) |',
      '|---|---|---|---|---|---|---|',
      ...r.neighbours.map((n) => `| ${n.a} − ${n.b} | ${pp(n.summary.mean)} [${pp(n.summary.lo)}, ${pp(n.summary.hi)}] | ${f2(n.summary.dz)} | ${n.summary.wins}/${n.summary.ties}/${n.summary.losses} | ${n.studentsNeeded ?? '—'} | ${n.seedsNeeded ?? '—'} | ${n.perScenarioSeeds.median ?? '—'}; ${n.perScenarioSeeds.never} |`),
      '',
      `Orders per persona: ${r.perPersona.map((p) => `${p.persona}: ${p.order}`).join('; ')}.`,
      '',
    );
  }
}
const tracers = [...byTracer.keys()].sort();
const agreements: Record<string, unknown> = {};
if (tracers.length === 2) {
  const [ta, tb] = tracers as [string, string];
  // Agreement over the cells both learners have (after --drop-failed).
  const keyOf = (r: RankingRun) => `${r.scenario}|${r.seed}`;
  const both = (xs: RankingRun[], ys: RankingRun[]) => xs.filter((r) => ys.some((y) => keyOf(y) === keyOf(r)));
  const A = both(byTracer.get(ta)!, byTracer.get(tb)!);
  const B = both(byTracer.get(tb)!, byTracer.get(ta)!);
  lines.push(`## ${ta.toUpperCase()} vs ${tb.toUpperCase()}`, '', '| tutors | same overall order | pairs flipped | tau-b (overall means) | scenarios with the same order | mean per-scenario tau-b |', '|---|---|---|---|---|---|');
  for (const set of SETS) {
    if (!set.every((t) => A.some((r) => r.tutor === t) && B.some((r) => r.tutor === t))) continue;
    const g = tracerAgreement(A, B, set);
    agreements[set.join(',')] = g;
    lines.push(`| ${set.join(', ')} | ${g.sameOrder ? 'yes' : 'no'} | ${g.flipped.join('; ') || 'none'} | ${f2(g.tau)} | ${pct(g.scenarioSameOrder)} | ${f2(g.scenarioTau)} (${g.scenarioTauN}) |`);
  }
  lines.push('');
}
console.log(lines.join('\n'));
if (values.json) writeFileSync(values.json, JSON.stringify({ label: values.label, sweeps: positionals, results, agreements }, null, 1) + '\n');
