/**
 * Judging a whole benchmark, planned before it starts: how many judge calls each finished run
 * takes (its sampled days × the rubrics that apply from their first day × the judges, exactly as
 * the panel will sample them), the tokens a call took in the runs already judged in this browser,
 * and the cost that comes to at the prices set in LLM settings. Pure functions.
 */
import { PANEL_DEFAULTS, RUBRICS, hashString, sampleDays, type RubricId } from '../../../core/index';
import type { StoredRun } from '../../../adapters/browser/run-store';

/** The judge calls one finished run takes: the panel's own day sampling (judges/panel.ts). */
export function callsFor(run: Pick<StoredRun, 'runId'> & { days: number; horizon: number }, panel: { daysPerRun: number | null; rubrics: readonly RubricId[] }, judges: number): number {
  const days = sampleDays(Math.max(1, Math.min(run.days, run.horizon)), panel.daysPerRun, PANEL_DEFAULTS.strata, hashString(`${run.runId}:judge-days`));
  let units = 0;
  for (const id of panel.rubrics) units += days.filter((d) => d >= RUBRICS[id].fromDay).length;
  return units * judges;
}

/** The days a stored run covered and its horizon (from its report and record). */
export function runDays(r: StoredRun): { days: number; horizon: number } | null {
  const days = r.report?.days ?? r.report?.curve.at(-1)?.day ?? null;
  const horizon = r.record?.horizonDays ?? r.record?.scenario.horizonDays ?? days;
  return days === null || horizon === null || horizon === undefined ? null : { days, horizon };
}

/** Tokens per judge call, measured on the runs already judged in this browser (null: none yet). */
export function measuredPerCall(runs: readonly StoredRun[]): { calls: number; tokensIn: number; tokensOut: number } | null {
  let calls = 0;
  let tin = 0;
  let tout = 0;
  for (const r of runs) {
    const j = r.report?.details.llm?.judge;
    if (!j || j.calls === 0) continue;
    calls += j.calls;
    tin += j.promptTokens;
    tout += j.completionTokens;
  }
  return calls === 0 ? null : { calls, tokensIn: tin / calls, tokensOut: tout / calls };
}

export interface JudgePlan {
  runs: { key: string; calls: number }[];
  calls: number;
  /** Runs of the benchmark that are not finished (they cannot be judged). */
  skipped: number;
  /** Tokens and cost for all the calls: null when not measured yet; cost null when a judge has no price. */
  tokens: { in: number; out: number } | null;
  cost: number | null;
  unpriced: string[];
}

/**
 * The plan for judging these runs with these judges. Prices: US$ per million tokens, per judge id
 * ("<model>@<provider>"); a judge without one makes the cost unknown (and is named).
 */
export function judgePlan(runs: readonly StoredRun[], judges: readonly { id: string; price: { input: number; output: number } | null }[], panel: { daysPerRun: number | null; rubrics: readonly RubricId[] }, perCall: { tokensIn: number; tokensOut: number } | null): JudgePlan {
  const out: JudgePlan['runs'] = [];
  let skipped = 0;
  for (const r of runs) {
    const d = runDays(r);
    if (!d || r.endReason === null || (r.status !== 'done' && r.status !== 'imported')) {
      skipped++;
      continue;
    }
    out.push({ key: r.key, calls: callsFor({ runId: r.runId, ...d }, panel, 1) });
  }
  const perJudge = out.reduce((a, b) => a + b.calls, 0);
  const calls = perJudge * judges.length;
  const unpriced = judges.filter((j) => !j.price).map((j) => j.id);
  const tokens = perCall ? { in: perCall.tokensIn * calls, out: perCall.tokensOut * calls } : null;
  const cost = perCall && unpriced.length === 0 ? judges.reduce((sum, j) => sum + (perJudge * (perCall.tokensIn * j.price!.input + perCall.tokensOut * j.price!.output)) / 1e6, 0) : null;
  return { runs: out.map((x) => ({ ...x, calls: x.calls * judges.length })), calls, skipped, tokens, cost, unpriced };
}
