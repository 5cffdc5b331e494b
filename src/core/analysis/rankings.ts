/**
 * How consistently the benchmark ranks tutors (docs/validity.md, "Rankings"): from one learning
 * gain per tutor × scenario × seed, on one learner model, the tutors' order overall and per
 * persona, Kendall's W with scenarios as raters of the tutors (seed-averaged, single-seed, and
 * averaged over k seeds), how often two disjoint sets of seeds give one scenario the same order,
 * and for neighbours in the overall order the paired difference and the students 80% power needs.
 * `tracerAgreement` compares two such results (AKT and BKT). Pure; `scripts/rankings.ts` reads
 * sweeps and calls this.
 */
import { TIE_TOLERANCE, pairedSummary, pairsNeeded, type PairedSummary } from '../stats/paired';
import { concordanceTest, kendallW, type ConcordanceTest } from './concordance';
import { byText, kendallTauB } from './stats';

/** One run's learning gain (a fraction per day), keyed by its cell. */
export interface RankingRun {
  tutor: string;
  scenario: string;
  persona: string;
  seed: number;
  gain: number;
}

export interface Neighbours {
  a: string;
  b: string;
  /** Over (scenario, seed) differences a − b. */
  summary: PairedSummary;
  /** Scenario × seed students for 80% power at α = 0.05 (two-sided paired t); null when the difference is 0 or has no spread. */
  studentsNeeded: number | null;
  /** The same in seeds over this set's scenarios. */
  seedsNeeded: number | null;
  /**
   * Within each scenario, over its seeds' differences: the seeds 80% power needs to tell the two
   * apart in that scenario alone (1 where every seed gives the same non-zero difference; null where
   * the mean difference is 0: never). The
   * median over scenarios, nulls counted as never (null when half or more are never), and how many are never.
   */
  perScenarioSeeds: { median: number | null; never: number };
}

export interface RankingStability {
  tutors: string[];
  scenarios: number;
  seeds: number[];
  /** Mean gain per tutor over scenarios (seed-averaged), and the order best first ("a > b = c"). */
  means: Record<string, number>;
  order: string;
  /** W over scenarios of the seed-averaged gains. */
  seedAveraged: ConcordanceTest;
  /** W over scenarios at each single seed. */
  perSeed: { seed: number; test: ConcordanceTest }[];
  /** W over scenarios of gains averaged over k seeds, the mean over every k-subset of the seeds, k = 1 … seeds. */
  byK: { k: number; w: number; subsets: number }[];
  /** Share of scenarios whose order from k seeds equals their order from k other seeds, over every two disjoint k-subsets. */
  splitAgreement: { k: number; share: number; comparisons: number }[];
  /** Seeds whose overall order (over every scenario at that seed alone) is the seed-averaged one. */
  singleSeedOverall: { same: number; of: number; orders: Record<string, number> };
  /** The seed-averaged order of each persona (over its scenarios), and how many distinct orders. */
  perPersona: { persona: string; order: string }[];
  personaOrders: number;
  /** Neighbours in the overall order: paired over (scenario, seed). */
  neighbours: Neighbours[];
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The order of tutors by value, best first; equal values are joined by "=" (ties in name order). */
export function orderOf(tutors: readonly string[], values: readonly number[]): string {
  const idx = tutors.map((_, i) => i).sort((i, j) => values[j]! - values[i]! || byText(tutors[i]!, tutors[j]!));
  let s = tutors[idx[0]!]!;
  for (let k = 1; k < idx.length; k++) s += `${values[idx[k]!] === values[idx[k - 1]!] ? ' = ' : ' > '}${tutors[idx[k]!]}`;
  return s;
}

/** Every k-subset of xs (in order). */
function subsets<T>(xs: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  if (xs.length < k) return [];
  const [head, ...rest] = xs;
  return [...subsets(rest, k - 1).map((s) => [head!, ...s]), ...subsets(rest, k)];
}

/**
 * The ranking analyses over `runs` for `tutors`. Every scenario must have a run of every tutor at
 * every seed, once: a missing or repeated cell is an error naming it (a partial grid would rank
 * tutors on different students).
 */
export function rankingStability(runs: readonly RankingRun[], tutors: readonly string[]): RankingStability {
  if (tutors.length < 2) throw new Error(`rankings need at least 2 tutors, got ${tutors.length}`);
  const own = runs.filter((r) => tutors.includes(r.tutor));
  const seeds = [...new Set(own.map((r) => r.seed))].sort((a, b) => a - b);
  const scenarios = [...new Set(own.map((r) => r.scenario))].sort(byText);
  if (scenarios.length < 2) throw new Error(`rankings need at least 2 scenarios, got ${scenarios.length}`);
  const gain = new Map<string, number>();
  const persona = new Map<string, string>();
  const cell = (s: string, t: string, seed: number) => `${s}\u0000${t}\u0000${seed}`;
  for (const r of own) {
    if (!Number.isFinite(r.gain)) throw new Error(`${r.scenario} × ${r.tutor} × seed ${r.seed}: learning gain is ${r.gain}, not a number`);
    const k = cell(r.scenario, r.tutor, r.seed);
    if (gain.has(k)) throw new Error(`${r.scenario} × ${r.tutor} × seed ${r.seed}: more than one run`);
    gain.set(k, r.gain);
    persona.set(r.scenario, r.persona);
  }
  for (const s of scenarios) for (const t of tutors) for (const seed of seeds) if (!gain.has(cell(s, t, seed))) throw new Error(`${s} × ${t} × seed ${seed}: no run (every scenario needs every tutor at every seed: ${seeds.join(', ')})`);
  const g = (s: string, t: string, seed: number) => gain.get(cell(s, t, seed))!;
  /** Rows: scenarios; columns: tutors; gains averaged over `over` seeds. */
  const matrix = (over: readonly number[], only: readonly string[] = scenarios) => only.map((s) => tutors.map((t) => mean(over.map((seed) => g(s, t, seed)))));

  const avg = matrix(seeds);
  const overall = tutors.map((_, j) => mean(avg.map((row) => row[j]!)));
  const order = orderOf(tutors, overall);

  const byK: RankingStability['byK'] = [];
  for (let k = 1; k <= seeds.length; k++) {
    const subs = subsets(seeds, k);
    const ws = subs.map((sub) => kendallW(matrix(sub)).w).filter((w): w is number => w !== null);
    byK.push({ k, w: mean(ws), subsets: ws.length });
  }

  const splitAgreement: RankingStability['splitAgreement'] = [];
  for (let k = 1; 2 * k <= seeds.length; k++) {
    let same = 0;
    let comparisons = 0;
    for (const a of subsets(seeds, k)) {
      for (const b of subsets(seeds.filter((x) => !a.includes(x)), k)) {
        if (byText(a.join(), b.join()) >= 0) continue; // each unordered pair once
        const ma = matrix(a);
        const mb = matrix(b);
        scenarios.forEach((_, i) => {
          comparisons++;
          if (orderOf(tutors, ma[i]!) === orderOf(tutors, mb[i]!)) same++;
        });
      }
    }
    splitAgreement.push({ k, share: same / comparisons, comparisons });
  }

  const orders: Record<string, number> = {};
  let sameOverall = 0;
  for (const seed of seeds) {
    const m = matrix([seed]);
    const o = orderOf(tutors, tutors.map((_, j) => mean(m.map((row) => row[j]!))));
    orders[o] = (orders[o] ?? 0) + 1;
    if (o === order) sameOverall++;
  }

  const personas = [...new Set(scenarios.map((s) => persona.get(s)!))].sort(byText);
  const perPersona = personas.map((p) => {
    const m = matrix(seeds, scenarios.filter((s) => persona.get(s) === p));
    return { persona: p, order: orderOf(tutors, tutors.map((_, j) => mean(m.map((row) => row[j]!)))) };
  });

  const ranked = tutors.map((t, j) => ({ t, v: overall[j]! })).sort((x, y) => y.v - x.v || byText(x.t, y.t));
  const neighbours: Neighbours[] = [];
  for (let i = 0; i + 1 < ranked.length; i++) {
    const a = ranked[i]!.t;
    const b = ranked[i + 1]!.t;
    const diffs = scenarios.flatMap((s) => seeds.map((seed) => g(s, a, seed) - g(s, b, seed)));
    const summary = pairedSummary(diffs);
    const studentsNeeded = summary.mean !== null && summary.sd !== null ? pairsNeeded(summary.mean, summary.sd) : null;
    const within = scenarios.map((s) => {
      const d = pairedSummary(seeds.map((seed) => g(s, a, seed) - g(s, b, seed)));
      if (d.mean === null || Math.abs(d.mean) <= TIE_TOLERANCE) return null;
      if (d.sd === null || d.sd <= TIE_TOLERANCE) return 1;
      return pairsNeeded(d.mean, d.sd);
    });
    const sorted = within.filter((x): x is number => x !== null).sort((x, y) => x - y);
    const never = within.length - sorted.length;
    // The median with the nevers as +∞ at the top: defined while they are under half.
    const mid = (within.length - 1) / 2;
    const median = never * 2 >= within.length ? null : (sorted[Math.floor(mid)]! + sorted[Math.ceil(mid)]!) / 2;
    neighbours.push({ a, b, summary, studentsNeeded, seedsNeeded: studentsNeeded === null ? null : Math.ceil(studentsNeeded / scenarios.length), perScenarioSeeds: { median, never } });
  }

  return {
    tutors: [...tutors],
    scenarios: scenarios.length,
    seeds,
    means: Object.fromEntries(tutors.map((t, j) => [t, overall[j]!])),
    order,
    seedAveraged: concordanceTest(avg),
    perSeed: seeds.map((seed) => ({ seed, test: concordanceTest(matrix([seed]), { seed }) })),
    byK,
    splitAgreement,
    singleSeedOverall: { same: sameOverall, of: seeds.length, orders },
    perPersona,
    personaOrders: new Set(perPersona.map((p) => p.order)).size,
    neighbours,
  };
}

export interface TracerAgreement {
  /** Kendall's tau-b between the two learners' overall means (null under 3 tutors). */
  tau: number | null;
  sameOrder: boolean;
  /** Pairs of tutors the two learners order oppositely (overall means). */
  flipped: string[];
  /** Share of scenarios whose seed-averaged order is the same under both, and the mean per-scenario tau-b (scenarios where it is defined). */
  scenarioSameOrder: number;
  scenarioTau: number | null;
  scenarioTauN: number;
}

/** How far two learner models (AKT, BKT) agree on the tutors' order, over the same runs' cells. */
export function tracerAgreement(runsA: readonly RankingRun[], runsB: readonly RankingRun[], tutors: readonly string[]): TracerAgreement {
  const a = rankingStability(runsA, tutors);
  const b = rankingStability(runsB, tutors);
  if (a.scenarios !== b.scenarios || a.seeds.join() !== b.seeds.join()) throw new Error(`tracer agreement needs the same scenarios and seeds (${a.scenarios} scenarios, seeds ${a.seeds.join(',')} vs ${b.scenarios}, ${b.seeds.join(',')})`);
  const ma = tutors.map((t) => a.means[t]!);
  const mb = tutors.map((t) => b.means[t]!);
  const flipped: string[] = [];
  for (let i = 0; i < tutors.length; i++) for (let j = i + 1; j < tutors.length; j++) if (Math.sign(ma[i]! - ma[j]!) * Math.sign(mb[i]! - mb[j]!) < 0) flipped.push(`${tutors[i]} vs ${tutors[j]}`);
  const per = (runs: readonly RankingRun[]) => {
    const m = new Map<string, number[]>();
    for (const s of [...new Set(runs.map((r) => r.scenario))].sort(byText)) m.set(s, tutors.map((t) => mean(runs.filter((r) => r.scenario === s && r.tutor === t).map((r) => r.gain))));
    return m;
  };
  const pa = per(runsA);
  const pb = per(runsB);
  let same = 0;
  const taus: number[] = [];
  for (const [s, va] of pa) {
    const vb = pb.get(s);
    if (!vb) throw new Error(`tracer agreement: scenario ${s} has runs on one learner only`);
    if (orderOf(tutors, va) === orderOf(tutors, vb)) same++;
    const t = kendallTauB(va, vb);
    if (t !== null) taus.push(t);
  }
  return { tau: kendallTauB(ma, mb), sameOrder: a.order === b.order, flipped, scenarioSameOrder: same / pa.size, scenarioTau: taus.length ? mean(taus) : null, scenarioTauN: taus.length };
}
