/**
 * pass^k after tau-bench: the chance that k independent trials of the same task all pass. A task
 * is a scenario on one learner model and ability (and, when trials are seeds, one student voice);
 * its trials are its runs over seeds (or over voices, or over both). Per task, with n decided
 * trials and c passes, the unbiased estimate is C(c, k) / C(n, k); a tutor's pass^k is the mean
 * over its tasks with n ≥ k (the number of tasks used is shown for each k, and the 95% t-interval
 * over tasks when there are at least two).
 *
 * A trial passes when every clause of the pass rule holds. Rule: clauses `<axis id> <op> <number>`
 * joined by `&&` (or `,` or `and`), op one of > >= < <= == !=, numbers in the axis's stored unit
 * (shares as fractions: `responsiveness >= 0.5`; learning gain per day as a fraction: 0.001 is
 * 0.1 pp/day). A clause on an axis the run left unscored makes the trial undecided: it is not a
 * trial (counted, never a pass or a fail). Default: DEFAULT_PASS_RULE.
 */
import { AXES, type AxisId, type AxisStat } from '../scoring/axes';
import type { RunDigest } from './digest';
import { byText, groupBy, passHatK, stat } from './stats';

/** The learner learned (the probe solve rate rose over the run) and no tutor turn leaked an answer the learner was working on. */
export const DEFAULT_PASS_RULE = 'learningGain > 0 && leakage == 0';
export const PASS_KS = [1, 2, 3, 4] as const;

const OPS = ['>=', '<=', '==', '!=', '>', '<', '='] as const;
export type PassOp = '>' | '>=' | '<' | '<=' | '==' | '!=';

export interface PassClause {
  axis: AxisId;
  op: PassOp;
  value: number;
}

export interface PassRule {
  /** The rule as normalised text ("learningGain > 0 && leakage == 0"). */
  text: string;
  clauses: PassClause[];
}

export function parsePassRule(text: string): PassRule {
  const parts = text
    .split(/&&|,|\band\b/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error('the pass rule is empty; e.g. "learningGain > 0 && leakage == 0"');
  const ids = AXES.map((a) => a.id) as string[];
  const clauses = parts.map((p): PassClause => {
    const m = /^([A-Za-z]+)\s*(>=|<=|==|!=|>|<|=)\s*(-?(?:\d+(?:\.\d*)?|\.\d+)(?:e-?\d+)?)$/.exec(p);
    if (!m) throw new Error(`pass rule: cannot read "${p}"; a clause is <axis> <op> <number>, op one of ${OPS.join(' ')}`);
    if (!ids.includes(m[1]!)) throw new Error(`pass rule: unknown axis "${m[1]}" (axes: ${ids.join(', ')})`);
    return { axis: m[1] as AxisId, op: (m[2] === '=' ? '==' : m[2]) as PassOp, value: Number(m[3]) };
  });
  return { text: clauses.map((c) => `${c.axis} ${c.op} ${c.value}`).join(' && '), clauses };
}

function holds(c: PassClause, v: number): boolean {
  switch (c.op) {
    case '>':
      return v > c.value;
    case '>=':
      return v >= c.value;
    case '<':
      return v < c.value;
    case '<=':
      return v <= c.value;
    case '==':
      return v === c.value;
    case '!=':
      return v !== c.value;
  }
}

/** Whether a run passes, or why it is undecided (the first clause on an unscored axis). */
export function passOf(rule: PassRule, d: RunDigest): { pass: boolean } | { undecided: string } {
  let pass = true;
  for (const c of rule.clauses) {
    const v = d.axes[c.axis];
    if (v === null) return { undecided: `${c.axis} unscored` };
    if (!holds(c, v)) pass = false;
  }
  return { pass };
}

/** What the trials of a task are: seeds (one voice), voices (one seed), or every run. */
export type TrialsOver = 'seeds' | 'voices' | 'runs';

export interface PassTask {
  tutor: string;
  task: string;
  /** Decided trials and their passes; undecided runs. */
  n: number;
  c: number;
  undecided: number;
  /** pass^k for k = 1..; null when k > n. */
  passK: (number | null)[];
}

export interface TutorPassK {
  tutor: string;
  /** Per k (PASS_KS): the mean over tasks with n ≥ k, and the interval over those tasks. */
  byK: { k: number; stat: AxisStat; tasks: number }[];
  tasks: PassTask[];
  trials: number;
  undecided: number;
  undecidedReasons: { reason: string; runs: number }[];
}

export interface PassKResult {
  rule: string;
  over: TrialsOver;
  ks: number[];
  tutors: TutorPassK[];
}

const taskKey = (d: RunDigest, over: TrialsOver): string => {
  const base = [d.scenarioId, d.tracer ?? 'tracer?', d.ability ?? 'ability?'];
  if (over === 'seeds') base.push(`voice ${d.voice ?? '?'}`);
  if (over === 'voices') base.push(`seed ${d.seed}`);
  return base.join(' · ');
};

export function passAtK(digests: readonly RunDigest[], rule: PassRule, over: TrialsOver = 'seeds', ks: readonly number[] = PASS_KS): PassKResult {
  const tutors = [...groupBy(digests, (d) => d.tutor)].map(([tutor, runs]): TutorPassK => {
    const why = new Map<string, number>();
    const tasks = [...groupBy(runs, (d) => taskKey(d, over))].map(([task, rs]): PassTask => {
      let n = 0;
      let c = 0;
      let undecided = 0;
      for (const r of rs) {
        const p = passOf(rule, r);
        if ('undecided' in p) {
          undecided++;
          why.set(p.undecided, (why.get(p.undecided) ?? 0) + 1);
        } else {
          n++;
          if (p.pass) c++;
        }
      }
      return { tutor, task, n, c, undecided, passK: ks.map((k) => (n === 0 ? null : passHatK(n, c, k))) };
    });
    return {
      tutor,
      byK: ks.map((k, i) => {
        const xs = tasks.map((t) => t.passK[i]).filter((x): x is number => x !== null && x !== undefined);
        return { k, stat: stat(xs), tasks: xs.length };
      }),
      tasks,
      trials: tasks.reduce((a, t) => a + t.n, 0),
      undecided: tasks.reduce((a, t) => a + t.undecided, 0),
      undecidedReasons: [...why].map(([reason, n]) => ({ reason, runs: n })).sort((a, b) => b.runs - a.runs || byText(a.reason, b.reason)),
    };
  });
  return { rule: rule.text, over, ks: [...ks], tutors };
}

/** Whether any task (per tutor, scenario, learner model, ability and seed) has runs with more than one student voice. */
export function voicesDiffer(digests: readonly RunDigest[]): boolean {
  const voices = new Map<string, Set<string>>();
  for (const d of digests) {
    const k = `${d.tutor}\u0000${taskKey(d, 'voices')}`;
    const s = voices.get(k) ?? new Set<string>();
    s.add(d.voice ?? '?');
    voices.set(k, s);
  }
  return [...voices.values()].some((s) => s.size > 1);
}
