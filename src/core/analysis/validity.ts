/**
 * The validity suite's verdicts (docs/validity.md): given the learning gain of paired runs (the
 * same scenario, ability and seed under different tutors), each row states a claim the benchmark
 * must uphold and whether it holds. Pure: `scripts/validity.ts` runs the policies and calls this.
 */
import { meanCi95 } from '../stats/index';
import { sampleStandardDeviation } from 'simple-statistics';
import type { Persona, Scenario } from '../scenario/schema';

/** Learning gain (pp/day, as a fraction per day) of one run, keyed by its cell. */
export interface ValidityRun {
  tutor: string;
  scenario: string;
  ability: string;
  seed: number;
  gain: number;
}

export interface PairedDiff {
  n: number;
  mean: number;
  lo: number | null;
  hi: number | null;
  dz: number | null;
  wins: number;
}

export interface ValidityRow {
  claim: string;
  a: string;
  b: string;
  diff: PairedDiff;
  holds: boolean;
  rule: string;
  /** What the difference is measured in: learning gain per day (the tutor rows) or accuracy (the rollout row). */
  unit?: 'pp/day' | 'pp';
}

/** An exploit "beats" doing nothing when its mean paired gain is above silence by more than this (pp/day as a fraction). */
export const EXPLOIT_MARGIN = 0.0001;
/** A tutor that teaches well beats doing nothing with a paired interval above 0 and at least this d_z. */
export const TEACHING_MIN_DZ = 0.5;

/** The cells of the spacing contrast (massed vs spaced) carry this ability tag. */
export const SAME_PRACTICE = 'same-practice';

/**
 * The persona habits that would make the amount of practice depend on how it is arranged, set so
 * that every item the tutor assigns gets exactly one worked-out attempt and nothing else is
 * practised: no skipped blocks, no session cut short (by a time budget, a run of wrong answers or
 * frustration), one try per item, no guesses (a guess is not practice), no self-practice on a
 * random skill when the assignment is done. The persona's other habits (timing, help requests,
 * slips) stay. docs/validity.md, "Spacing".
 */
export const SAME_PRACTICE_PERSONA: Readonly<Partial<Persona>> = {
  skipBlockProb: 0,
  skipBlockProbIfDue: null,
  sessionMinutes: null,
  maxAttemptsPerItem: 1,
  giveUpAfterFailures: 50,
  quitAtFrustration: null,
  guessProb: 0,
  guessWhenFrustrated: 0,
  selfPracticeWhenIdle: false,
};

/**
 * The scenario a spacing arm runs: the course's homework off (homework on every skill every day
 * would refresh every skill in both arms) and the persona's practice-amount habits neutralised
 * (SAME_PRACTICE_PERSONA), so that massed and spaced differ only in when the same attempts happen.
 * Returns a copy; the scenario passed in is left as it was.
 */
export function samePracticeScenario(scenario: Scenario): Scenario {
  const s = structuredClone(scenario);
  s.course.homework.days = [];
  s.learner.persona = { ...s.learner.persona, ...SAME_PRACTICE_PERSONA };
  return s;
}

const key = (r: Pick<ValidityRun, 'scenario' | 'ability' | 'seed'>) => `${r.scenario}|${r.ability}|${r.seed}`;

/** Paired differences a − b over the cells both ran (optionally only cells of one ability). */
export function pairedDiff(runs: readonly ValidityRun[], a: string, b: string, ability?: string): PairedDiff {
  const bOf = new Map<string, number>();
  for (const r of runs) {
    if (r.tutor !== b || (ability && r.ability !== ability)) continue;
    if (bOf.has(key(r))) throw new Error(`pairedDiff: two runs of ${b} for one student (${key(r)}): each student must be paired once`);
    bOf.set(key(r), r.gain);
  }
  const seen = new Set<string>();
  const d: number[] = [];
  for (const r of runs) {
    if (r.tutor !== a || (ability && r.ability !== ability)) continue;
    if (seen.has(key(r))) throw new Error(`pairedDiff: two runs of ${a} for one student (${key(r)}): each student must be paired once`);
    seen.add(key(r));
    const other = bOf.get(key(r));
    if (other !== undefined) d.push(r.gain - other);
  }
  return summarizeDiffs(d);
}

/** Mean, 95% t-interval, d_z and the count above 0 of paired differences. */
export function summarizeDiffs(d: readonly number[]): PairedDiff {
  const c = meanCi95(d);
  const sd = d.length > 1 ? sampleStandardDeviation([...d]) : null;
  return { n: d.length, mean: c.mean, lo: c.lo, hi: c.hi, dz: sd && sd > 0 ? c.mean / sd : null, wins: d.filter((x) => x > 0).length };
}

/**
 * The rollout row (docs/learning-model.md, "Generative fidelity"): per held-out student, the
 * learner's generated accuracy minus the student's real accuracy over the same rows
 * (`npm run rollout`). Holds when the mean is within ±`tolerance` (a fraction of accuracy).
 */
export function fidelityRow(diffs: readonly number[], tolerance: number, students: string): ValidityRow {
  const d = summarizeDiffs(diffs);
  return {
    claim: `the learner generates real students' accuracy (closed-loop rollout, ${students})`,
    a: 'generated',
    b: 'real',
    diff: d,
    holds: d.n > 0 && Math.abs(d.mean) <= tolerance,
    rule: `mean within ±${+(tolerance * 100).toFixed(2)} pp`,
    unit: 'pp',
  };
}

/** The difference of two paired differences (e.g. a treatment's value added for novices minus for experts), paired by scenario and seed. */
export function interaction(runs: readonly ValidityRun[], treat: string, control: string, abilityA: string, abilityB: string): PairedDiff {
  const va = (ability: string) => {
    const ctl = new Map(runs.filter((r) => r.tutor === control && r.ability === ability).map((r) => [`${r.scenario}|${r.seed}`, r.gain]));
    return new Map(runs.filter((r) => r.tutor === treat && r.ability === ability && ctl.has(`${r.scenario}|${r.seed}`)).map((r) => [`${r.scenario}|${r.seed}`, r.gain - ctl.get(`${r.scenario}|${r.seed}`)!]));
  };
  const A = va(abilityA);
  const B = va(abilityB);
  const fake: ValidityRun[] = [];
  for (const [k, v] of A) {
    const w = B.get(k);
    if (w === undefined) continue;
    const [scenario, seed] = k.split('|') as [string, string];
    fake.push({ tutor: 'A', scenario, ability: '', seed: Number(seed), gain: v }, { tutor: 'B', scenario, ability: '', seed: Number(seed), gain: w });
  }
  return pairedDiff(fake, 'A', 'B');
}

const above = (d: PairedDiff) => d.lo !== null && d.lo > 0;

/** Red-team arms beyond the first exploits (docs/validity.md, "Exploits an outsider would try"). */
export interface RedTeamClaims {
  /** Exploits that must lose to teaching: planner − exploit with a paired interval above 0. */
  losesToTeaching?: readonly string[];
  /** [treatment, its twin]: the same tutor with one channel added that must add nothing (mean ≤ the exploit margin). */
  twins?: readonly (readonly [string, string, string])[];
}

export function validityRows(runs: readonly ValidityRun[], exploits: readonly string[], red: RedTeamClaims = {}): ValidityRow[] {
  const rows: ValidityRow[] = [];
  const avg = 'average';
  for (const e of exploits) {
    const d = pairedDiff(runs, e, 'silent', avg);
    rows.push({ claim: `${e} does not beat doing nothing`, a: e, b: 'silent', diff: d, holds: d.n > 0 && d.mean <= EXPLOIT_MARGIN, rule: `mean ≤ ${EXPLOIT_MARGIN * 100} pp/day` });
  }
  for (const e of red.losesToTeaching ?? []) {
    const d = pairedDiff(runs, 'planner', e, avg);
    rows.push({ claim: `${e} loses to teaching (planner − ${e})`, a: 'planner', b: e, diff: d, holds: above(d), rule: 'interval above 0' });
  }
  for (const [t, twin, what] of red.twins ?? []) {
    const d = pairedDiff(runs, t, twin, avg);
    rows.push({ claim: `${what} (${t} − ${twin})`, a: t, b: twin, diff: d, holds: d.n > 0 && d.mean <= EXPLOIT_MARGIN, rule: `mean ≤ ${EXPLOIT_MARGIN * 100} pp/day` });
  }
  for (const t of ['planner', 'oracle']) {
    const d = pairedDiff(runs, t, 'silent', avg);
    rows.push({ claim: `${t} beats doing nothing`, a: t, b: 'silent', diff: d, holds: above(d) && (d.dz ?? 0) >= TEACHING_MIN_DZ, rule: `interval above 0, d_z ≥ ${TEACHING_MIN_DZ}` });
  }
  const ra = pairedDiff(runs, 'planner', 'random-assigner', avg);
  rows.push({ claim: 'targeted teaching beats untargeted practice', a: 'planner', b: 'random-assigner', diff: ra, holds: above(ra), rule: 'interval above 0' });
  const ag = pairedDiff(runs, 'planner', 'answer-giver', avg);
  rows.push({ claim: 'answer-giving loses to teaching', a: 'planner', b: 'answer-giver', diff: ag, holds: above(ag), rule: 'interval above 0' });
  const sp = pairedDiff(runs, 'spaced', 'massed', SAME_PRACTICE);
  rows.push({ claim: 'spacing beats massing (the same attempts: one per assigned item, no homework or self-practice)', a: 'spaced', b: 'massed', diff: sp, holds: above(sp), rule: 'interval above 0' });
  const we = interaction(runs, 'worked-examples', 'silent', 'low', 'high');
  rows.push({ claim: 'worked examples help novices more than experts', a: 'worked-examples − silent (low)', b: 'worked-examples − silent (high)', diff: we, holds: above(we), rule: 'interval above 0' });
  return rows;
}

const pp = (x: number | null) => (x === null ? '—' : (x * 100).toFixed(3));

export function validityTable(rows: readonly ValidityRow[]): string {
  const out = ['| claim | paired difference [95% CI] | d_z | wins | n | rule | holds |', '|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    const d = r.diff;
    out.push(`| ${r.claim} | ${pp(d.mean)} [${pp(d.lo)}, ${pp(d.hi)}] ${r.unit ?? 'pp/day'} | ${d.dz === null ? '—' : d.dz.toFixed(2)} | ${d.wins}/${d.n} | ${d.n} | ${r.rule} | ${r.holds ? 'yes' : '**no**'} |`);
  }
  return out.join('\n');
}
