/**
 * Agreement between judges over a set of judged runs:
 *  - per axis and pair of judges, Spearman's rank correlation over the (run, day) units both
 *    scored (ties get average ranks; null with fewer than 3 shared units or no variation);
 *  - per axis, each judge's mean per tutor, and a warning whenever two judges order two tutors
 *    oppositely (judge A puts tutor X above Y, judge B puts Y above X), as Fan et al. 2026 found
 *    for helpfulness.
 */
import type { EventOf, TraceEvent } from '../trace/types';
import { RUBRICS, type JudgedAxis, type RubricId } from '../rubrics/index';
import { verdictValue } from './aggregate';
import { tutorLabel } from '../trace/tutor-label';
import { sampleRankCorrelation } from 'simple-statistics';

/** Spearman's rho (simple-statistics: Pearson on midranks); null with fewer than 3 pairs or no rank variation. */
export function spearman(a: number[], b: number[]): number | null {
  if (a.length !== b.length || a.length < 3) return null;
  const rho = sampleRankCorrelation(a, b);
  return Number.isFinite(rho) ? rho : null;
}

export interface JudgedRun {
  runId: string;
  events: readonly TraceEvent[];
}

export interface AgreementReport {
  pairs: { axis: JudgedAxis; a: string; b: string; rho: number | null; n: number }[];
  tutorMeans: { axis: JudgedAxis; tutor: string; judge: string; mean: number; n: number }[];
  warnings: string[];
}

export function agreementReport(runs: readonly JudgedRun[]): AgreementReport {
  // axis -> judge -> unit key -> value; and axis -> judge -> tutor -> values
  const units = new Map<JudgedAxis, Map<string, Map<string, number>>>();
  const byTutor = new Map<JudgedAxis, Map<string, Map<string, number[]>>>();
  runs.forEach((run, ri) => {
    const start = run.events[0];
    if (!start || start.type !== 'run_start') return;
    const tutor = tutorLabel(start.tutor);
    for (const e of run.events) {
      if (e.type !== 'judge_verdict') continue;
      const v = verdictValue(e as EventOf<'judge_verdict'>);
      if (v === null) continue;
      const r = RUBRICS[e.rubric as RubricId];
      if (!r) continue;
      const axis = r.axis;
      const u = units.get(axis) ?? new Map();
      units.set(axis, u);
      const uj = u.get(e.judge) ?? new Map<string, number>();
      u.set(e.judge, uj);
      uj.set(`${ri}:${run.runId}:${e.day}`, v);
      const t = byTutor.get(axis) ?? new Map();
      byTutor.set(axis, t);
      const tj = t.get(e.judge) ?? new Map<string, number[]>();
      t.set(e.judge, tj);
      const list = tj.get(tutor) ?? [];
      tj.set(tutor, list);
      list.push(v);
    }
  });
  const pairs: AgreementReport['pairs'] = [];
  const tutorMeans: AgreementReport['tutorMeans'] = [];
  const warnings: string[] = [];
  for (const [axis, perJudge] of units) {
    const judges = [...perJudge.keys()].sort();
    for (let i = 0; i < judges.length; i++)
      for (let k = i + 1; k < judges.length; k++) {
        const A = perJudge.get(judges[i]!)!;
        const B = perJudge.get(judges[k]!)!;
        const shared = [...A.keys()].filter((key) => B.has(key));
        pairs.push({ axis, a: judges[i]!, b: judges[k]!, rho: spearman(shared.map((x) => A.get(x)!), shared.map((x) => B.get(x)!)), n: shared.length });
      }
    const t = byTutor.get(axis)!;
    const means = new Map<string, Map<string, number>>();
    for (const j of judges) {
      const m = new Map<string, number>();
      for (const [tutor, vals] of t.get(j) ?? []) {
        const mu = vals.reduce((a, b) => a + b, 0) / vals.length;
        m.set(tutor, mu);
        tutorMeans.push({ axis, tutor, judge: j, mean: mu, n: vals.length });
      }
      means.set(j, m);
    }
    const tutors = [...new Set(tutorMeans.filter((x) => x.axis === axis).map((x) => x.tutor))].sort();
    for (let x = 0; x < tutors.length; x++)
      for (let y = x + 1; y < tutors.length; y++)
        for (let i = 0; i < judges.length; i++)
          for (let k = i + 1; k < judges.length; k++) {
            const mi = means.get(judges[i]!)!;
            const mk = means.get(judges[k]!)!;
            const tx = tutors[x]!;
            const ty = tutors[y]!;
            if (!mi.has(tx) || !mi.has(ty) || !mk.has(tx) || !mk.has(ty)) continue;
            const di = mi.get(tx)! - mi.get(ty)!;
            const dk = mk.get(tx)! - mk.get(ty)!;
            if (di * dk < 0) {
              const [hi, lo] = di > 0 ? [tx, ty] : [ty, tx];
              warnings.push(`${axis}: ${judges[i]} ranks ${hi} above ${lo} (${mi.get(hi)!.toFixed(2)} vs ${mi.get(lo)!.toFixed(2)}), but ${judges[k]} ranks ${lo} above ${hi} (${mk.get(lo)!.toFixed(2)} vs ${mk.get(hi)!.toFixed(2)})`);
            }
          }
  }
  return { pairs, tutorMeans, warnings };
}

export function formatAgreement(rep: AgreementReport): string {
  const lines: string[] = ['Judge agreement (Spearman rho over the run-days both judges scored):'];
  if (rep.pairs.length === 0) lines.push('  (no axis has two judges with scored verdicts)');
  for (const p of rep.pairs) lines.push(`  ${p.axis.padEnd(14)} ${p.a} vs ${p.b}: ${p.rho === null ? 'n/a' : p.rho.toFixed(3)} (n = ${p.n}${p.rho === null ? (p.n < 3 ? ', fewer than 3 shared units' : ', no variation') : ''})`);
  if (rep.warnings.length) {
    lines.push('Warnings: judges order tutors oppositely:');
    for (const w of rep.warnings) lines.push(`  ! ${w}`);
  }
  return lines.join('\n');
}
