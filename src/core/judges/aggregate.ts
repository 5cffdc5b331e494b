/**
 * From stored verdicts to judged axes. Per (rubric, day) unit: the mean of the judges' day scores
 * for scale rubrics, the majority of the judges' yes/no for answer holding (a tie leaves the unit
 * unscored). An axis is the mean over its scored units (answer holding: the share of units where
 * the panel says the tutor held the answers back). No scored unit: the axis is null (unscored),
 * with the reason.
 */
import type { EventOf, TraceEvent } from '../trace/types';
import type { TokenUsage } from '../llm/types';
import { RUBRICS, dayValue, type JudgedAxis, type RubricId } from '../rubrics/index';

export interface JudgedAxisDetail {
  rubric: RubricId;
  rubricVersion: string;
  value: number | null;
  reason?: string;
  /** Days with a panel value. */
  scoredDays: number[];
  /** Units (days) judged, and verdicts given / unscored. */
  units: number;
  verdicts: number;
  unscoredVerdicts: number;
  /** Each judge's own mean over the days it scored. */
  perJudge: { judge: string; model: string; mean: number | null; scored: number }[];
  /** Scale rubrics: the mean of each item over all scored verdicts. */
  items?: Record<string, number>;
}

export interface JudgedSummary {
  values: Record<JudgedAxis, number | null>;
  detail: Partial<Record<JudgedAxis, JudgedAxisDetail>>;
  panel: { id: string; judges: { id: string; model: string; family: string | null }[]; days: number[]; stopped: { judge: string; reason: string }[] } | null;
  usage: TokenUsage | null;
  cost: number | null;
}

const EMPTY: Record<JudgedAxis, number | null> = { helpfulness: null, gagne: null, rosenshine: null, answerHolding: null, pedagogy: null };
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** The value one verdict gives its day (a scale rubric's day score, 1/0 for answer holding), or null. */
export function verdictValue(v: EventOf<'judge_verdict'>): number | null {
  if (v.status !== 'scored') return null;
  const r = RUBRICS[v.rubric as RubricId];
  if (!r) return null;
  if (r.kind === 'binary') return v.holds === null ? null : v.holds ? 1 : 0;
  return v.scores ? dayValue(r, v.scores) : null;
}

export function judgedAxes(events: readonly TraceEvent[]): JudgedSummary {
  const verdicts = events.filter((e): e is EventOf<'judge_verdict'> => e.type === 'judge_verdict');
  const panelEv = events.find((e): e is EventOf<'judge_panel'> => e.type === 'judge_panel');
  const values = { ...EMPTY };
  const detail: Partial<Record<JudgedAxis, JudgedAxisDetail>> = {};
  for (const rid of Object.keys(RUBRICS) as RubricId[]) {
    const r = RUBRICS[rid];
    const vs = verdicts.filter((v) => v.rubric === rid);
    if (vs.length === 0) continue;
    const days = [...new Set(vs.map((v) => v.day))].sort((a, b) => a - b);
    const unitValues: number[] = [];
    const scoredDays: number[] = [];
    for (const d of days) {
      const vals = vs.filter((v) => v.day === d).map(verdictValue).filter((x): x is number => x !== null);
      if (vals.length === 0) continue;
      if (r.kind === 'binary') {
        const yes = vals.filter((x) => x === 1).length;
        const no = vals.length - yes;
        if (yes === no) continue; // a tie: no majority, the day stays unscored
        unitValues.push(yes > no ? 1 : 0);
      } else unitValues.push(mean(vals)!);
      scoredDays.push(d);
    }
    const judges = [...new Set(vs.map((v) => v.judge))];
    const perJudge = judges.map((j) => {
      const mine = vs.filter((v) => v.judge === j);
      const vals = mine.map(verdictValue).filter((x): x is number => x !== null);
      return { judge: j, model: mine[0]!.model, mean: mean(vals), scored: vals.length };
    });
    const value = mean(unitValues);
    const d: JudgedAxisDetail = {
      rubric: rid,
      rubricVersion: [...new Set(vs.map((v) => v.rubricVersion))].join(', '),
      value,
      scoredDays,
      units: days.length,
      verdicts: vs.length,
      unscoredVerdicts: vs.filter((v) => v.status !== 'scored').length,
      perJudge,
    };
    if (value === null) d.reason = r.kind === 'binary' && vs.some((v) => v.status === 'scored') ? 'no day had a majority verdict' : 'every verdict was unscored (see the verdicts for why)';
    if (r.kind === 'scale') {
      const scored = vs.filter((v) => v.status === 'scored' && v.scores);
      if (scored.length) d.items = Object.fromEntries(r.items.map((it) => [it.id, mean(scored.map((v) => v.scores![it.id]!))!]));
    }
    values[r.axis] = value;
    detail[r.axis] = d;
  }
  const usage = verdicts.reduce<TokenUsage | null>((a, v) => (v.usage ? { promptTokens: (a?.promptTokens ?? 0) + v.usage.promptTokens, completionTokens: (a?.completionTokens ?? 0) + v.usage.completionTokens } : a), null);
  const costs = verdicts.filter((v) => v.cost !== null);
  const cost = costs.length ? costs.reduce((a, v) => a + v.cost!, 0) : null;
  return {
    values,
    detail,
    panel: panelEv ? { id: panelEv.panel, judges: panelEv.judges.map((j) => ({ id: j.id, model: j.model, family: j.family })), days: panelEv.days, stopped: panelEv.stopped ?? [] } : null,
    usage,
    cost,
  };
}
