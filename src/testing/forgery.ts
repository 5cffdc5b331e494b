/**
 * Forged traces (issue 36): one field edited the way a person moving a score would edit it, on a
 * judged run of the 3-day fixture. Each must be refused by the strict reader with file, line and
 * field, or, if read, leave every score as it was. Used by src/core/trace/forgery.test.ts and the
 * fault suite (scripts/faults/doors.faults.ts).
 */
import { parseJsonl, scoreTrace, toJsonl, TraceParseError, type TraceEvent } from '../core/index';

type Ev = Record<string, any>;
export interface Forgery {
  name: string;
  /** Edits the events (JSON objects, renumbered after). */
  edit(events: Ev[]): void;
}

const last = (evs: Ev[], type: string) => [...evs].reverse().find((e) => e.type === type)!;
const first = (evs: Ev[], type: string, f: (e: Ev) => boolean = () => true) => evs.find((e) => e.type === type && f(e))!;

export const FORGERIES: Forgery[] = [
  { name: 'two copies of one judge verdict', edit: (evs) => evs.push(structuredClone(last(evs, 'judge_verdict'))) },
  { name: "the last probe's solveRate set to 1", edit: (evs) => void (last(evs, 'probe').solveRate = 1) },
  { name: "the first probe's solveRate set to 0", edit: (evs) => void (first(evs, 'probe').solveRate = 0) },
  { name: "the last probe's gradedRate set to 1", edit: (evs) => void (last(evs, 'probe').gradedRate = 1) },
  { name: 'a probe item marked correct', edit: (evs) => { const it = last(evs, 'probe').items.find((x: Ev) => !x.correct) ?? last(evs, 'probe').items[0]; it.correct = !it.correct; } },
  { name: 'a probe with an item left out', edit: (evs) => void last(evs, 'probe').items.pop() },
  { name: 'duplicate item ids with empty answer forms', edit: (evs) => { const b = evs[0]!.itemBank; b.items.push(...b.items.map((it: Ev) => ({ ...it, answerForms: { numeric: [], phrases: [] } }))); } },
  { name: "every item's answer forms emptied", edit: (evs) => { for (const it of evs[0]!.itemBank.items) it.answerForms = { numeric: [], phrases: [] }; } },
  { name: 'numeric answer forms that are not strings', edit: (evs) => { for (const it of evs[0]!.itemBank.items) it.answerForms = { numeric: [7], phrases: [] }; } },
  { name: "workingOn stripped from the tutor's messages", edit: (evs) => { for (const e of evs) if (e.type === 'message' && e.from === 'tutor') delete e.workingOn; } },
  { name: 'a run that ends on day 1 but holds events to day 3', edit: (evs) => void (last(evs, 'run_end').days = 1) },
  { name: 'run_end horizon_reached on an earlier day', edit: (evs) => { const e = last(evs, 'run_end'); e.days = Math.max(1, e.days - 1); } },
  { name: 'an attempt on an unknown item', edit: (evs) => void (first(evs, 'attempt').itemId = 'no-such-item') },
  { name: "an attempt on another skill's item", edit: (evs) => { const a = first(evs, 'attempt'); const other = evs[0]!.itemBank.items.find((it: Ev) => it.skillId !== a.skill); if (other) a.itemId = other.id; } },
  { name: 'a verdict of another rubric version', edit: (evs) => void (last(evs, 'judge_verdict').rubricVersion = 'helpfulness-v0') },
  { name: 'rubric id "constructor" in the panel', edit: (evs) => void (last(evs, 'judge_panel').rubrics[0].id = 'constructor') },
  { name: 'rubric id "__proto__" in a verdict', edit: (evs) => void (last(evs, 'judge_verdict').rubric = '__proto__') },
  { name: "a verdict's score raised without its reply", edit: (evs) => { const v = first(evs, 'judge_verdict', (x) => x.scores); const k = Object.keys(v.scores)[0]!; v.scores[k] = v.scores[k] === 1 ? 0 : 1; } },
  { name: "a binary verdict's holds flipped", edit: (evs) => { const v = evs.find((x) => x.type === 'judge_verdict' && x.holds !== null); if (v) v.holds = !v.holds; else evs.push(structuredClone(last(evs, 'judge_verdict'))); } },
  { name: "a scored verdict's reply removed", edit: (evs) => void (first(evs, 'judge_verdict', (x) => x.status === 'scored').raw = null) },
  { name: "the bank's hash changed", edit: (evs) => void (evs[0]!.itemBank.hash = '00000000') },
  { name: 'a probe item moved to another id', edit: (evs) => void (last(evs, 'probe').items[0].itemId = evs[0]!.itemBank.items[0].id) },
];

export type ForgeryOutcome = { kind: 'clearError'; message: string } | { kind: 'completed' } | { kind: 'silentlyWrong'; why: string } | { kind: 'crashed'; why: string };

const axes = (events: readonly TraceEvent[]) => {
  const r = scoreTrace(events);
  return JSON.stringify({ lg: r.learningGain, lk: r.leakage, rs: r.responsiveness, ind: r.independence, ex: r.extraction, j: r.judged, d: r.dailySolveRate });
};

/** Applies one forgery to `base` and reads it back: refused (with file:line), or read with every score unchanged. */
export function tryForgery(base: readonly TraceEvent[], f: Forgery): ForgeryOutcome {
  const evs = JSON.parse(JSON.stringify(base)) as Ev[];
  f.edit(evs);
  const text = toJsonl(evs.map((e, i) => ({ ...e, seq: i })) as unknown as TraceEvent[]);
  let read: TraceEvent[];
  try {
    read = parseJsonl(text, 'forged.jsonl').events;
  } catch (e) {
    if (e instanceof TraceParseError && e.line !== null && /^forged\.jsonl:\d+: /.test(e.message)) return { kind: 'clearError', message: e.message };
    return { kind: 'crashed', why: e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 300) : String(e) };
  }
  try {
    return axes(read) === axes(base) ? { kind: 'completed' } : { kind: 'silentlyWrong', why: `${f.name}: read, and a score moved` };
  } catch (e) {
    return { kind: 'crashed', why: `${f.name}: scoring threw ${e instanceof Error ? e.message : String(e)}`.slice(0, 300) };
  }
}
