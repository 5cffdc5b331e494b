/**
 * pass^k after tau-bench: the chance that k independent trials of the same task all pass. A task
 * is a scenario on one learner model and ability (and, when trials are seeds, one student voice);
 * its trials are its runs over student voices (the paper's pass^k: one task, k student models), over
 * seeds (a separate, labelled view), or over both. Per task, with n decided trials and c passes, the
 * unbiased estimate is C(c, k) / C(n, k). A tutor's pass^k for every k is the mean over the SAME
 * tasks: those with at least K decided trials, K the largest k shown (so pass^k can only fall as k
 * grows); tasks with fewer are left out and counted. K is the median decided-trial count of the
 * tasks (every tutor's), at most the number of voices across voices and at most 4 otherwise.
 *
 * A trial passes when every clause of the pass rule holds, and fails when a clause it can decide
 * fails; when a clause reads an axis the run left unscored and no decided clause fails, the trial
 * is undecided: not a trial (counted, never a pass or a fail). Rule: clauses `<axis id> <op>
 * <number>` joined by `&&` (or `,` or `and`), op one of > >= < <= == !=, numbers in the axis's
 * stored unit (shares as fractions: `responsiveness >= 0.5`; learning gain and value added per day
 * as a fraction: 0.001 is 0.1 pp/day). Default: DEFAULT_PASS_RULE.
 */
import { AXES, type AxisId, type AxisStat } from '../scoring/axes';
import type { RunDigest } from './digest';
import { byText, groupBy, passHatK, stat } from './stats';

/** The declared value-added threshold of the default pass rule: 0.05 pp/day (1.5 pp of probe solve rate over 30 days) above the same student with no tutor. */
export const VALUE_ADDED_THRESHOLD = 0.0005;
/**
 * The tutor added learning beyond what the same student gains with no tutor (value added above
 * the declared threshold), and no tutor turn leaked an answer the learner was working on. A silent
 * tutor fails it (value added 0), whatever its leakage.
 */
export const DEFAULT_PASS_RULE = `valueAdded > ${VALUE_ADDED_THRESHOLD} && leakage == 0`;
/** The largest k across seeds, and across seeds and voices (across voices: the number of voices). */
export const MAX_K = 4;
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

/**
 * Whether a run passes: every clause holds (pass); some clause it can decide fails (fail, even when
 * another reads an unscored axis); otherwise undecided, naming the first clause on an unscored axis.
 */
export function passOf(rule: PassRule, d: RunDigest): { pass: boolean } | { undecided: string } {
  let unscored: string | null = null;
  for (const c of rule.clauses) {
    const v = d.axes[c.axis];
    if (v === null || v === undefined) {
      unscored ??= `${c.axis} unscored`;
      continue;
    }
    if (!holds(c, v)) return { pass: false };
  }
  return unscored ? { undecided: unscored } : { pass: true };
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
  /** The run ids of the trials that failed (the runs behind a failing task: the page opens them). */
  failed: string[];
  /** pass^k for k = 1..; null when k > n. */
  passK: (number | null)[];
}

export interface TutorPassK {
  tutor: string;
  /** Per k (1..K): the mean over the tasks with n ≥ K (the same tasks for every k), and the interval over those tasks. */
  byK: { k: number; stat: AxisStat; tasks: number }[];
  tasks: PassTask[];
  /** Tasks left out of byK: fewer than K decided trials. */
  leftOut: number;
  trials: number;
  undecided: number;
  undecidedReasons: { reason: string; runs: number }[];
}

export interface PassKResult {
  rule: string;
  over: TrialsOver;
  /** 1..K. */
  ks: number[];
  /** K: every task behind the means has at least K decided trials. */
  minTrials: number;
  tutors: TutorPassK[];
}

const taskKey = (d: RunDigest, over: TrialsOver): string => {
  const base = [d.scenarioId, d.tracer ?? 'tracer?', d.ability ?? 'ability?'];
  if (over === 'seeds') base.push(`voice ${d.voice ?? '?'}`);
  if (over === 'voices') base.push(`seed ${d.seed}`);
  return base.join(' · ');
};

export function passAtK(digests: readonly RunDigest[], rule: PassRule, over: TrialsOver = 'seeds', maxK?: number): PassKResult {
  const cap = maxK ?? (over === 'voices' ? Infinity : MAX_K);
  const why = new Map<string, Map<string, number>>();
  const perTutor = [...groupBy(digests, (d) => d.tutor)].map(([tutor, runs]) => {
    const w = new Map<string, number>();
    why.set(tutor, w);
    const tasks = [...groupBy(runs, (d) => taskKey(d, over))].map(([task, rs]) => {
      let n = 0;
      let c = 0;
      let undecided = 0;
      const failed: string[] = [];
      for (const r of rs) {
        const p = passOf(rule, r);
        if ('undecided' in p) {
          undecided++;
          w.set(p.undecided, (w.get(p.undecided) ?? 0) + 1);
        } else {
          n++;
          if (p.pass) c++;
          else failed.push(r.runId);
        }
      }
      return { tutor, task, n, c, undecided, failed };
    });
    return { tutor, tasks };
  });
  const ns = perTutor.flatMap((t) => t.tasks.map((x) => x.n)).filter((n) => n > 0).sort((a, b) => a - b);
  const median = ns.length ? (ns.length % 2 ? ns[(ns.length - 1) / 2]! : Math.floor((ns[ns.length / 2 - 1]! + ns[ns.length / 2]!) / 2)) : 0;
  const K = Math.min(cap, median);
  const ks = Array.from({ length: K }, (_, i) => i + 1);
  const tutors = perTutor.map(({ tutor, tasks: raw }): TutorPassK => {
    const tasks: PassTask[] = raw.map((t) => ({ ...t, passK: ks.map((k) => (t.n === 0 ? null : passHatK(t.n, t.c, k))) }));
    const used = tasks.filter((t) => t.n >= K && K > 0);
    return {
      tutor,
      byK: ks.map((k, i) => {
        const xs = used.map((t) => t.passK[i]).filter((x): x is number => x !== null && x !== undefined);
        return { k, stat: stat(xs), tasks: xs.length };
      }),
      tasks,
      leftOut: tasks.length - used.length,
      trials: tasks.reduce((a, t) => a + t.n, 0),
      undecided: tasks.reduce((a, t) => a + t.undecided, 0),
      undecidedReasons: [...why.get(tutor)!].map(([reason, n]) => ({ reason, runs: n })).sort((a, b) => b.runs - a.runs || byText(a.reason, b.reason)),
    };
  });
  return { rule: rule.text, over, ks, minTrials: K, tutors };
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
