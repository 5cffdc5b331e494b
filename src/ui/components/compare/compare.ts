/**
 * Side-by-side comparison of runs: for each day, what happened in each run in a few lines (the
 * conversation, the tutor's writes, the day's probe, and the judges' verdicts on that day), with
 * the leak and unanswered-request flags the scorers raise, so that two tutors' days line up.
 * Pure functions of traces; CompareRuns.svelte lays them out.
 */
import { helpRequests, tutorTurns, type EventOf, type TraceEvent } from '../../../core/index';
import { eventDay } from '../trace-view';

export interface DayEntry {
  seq: number;
  kind: 'learner' | 'tutor' | 'write' | 'probe' | 'verdict';
  text: string;
  /** Flags the scores count: "gave an answer away", "unanswered", "unscored: …". */
  flags: string[];
}

const short = (s: string, n = 220) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);

function argsText(args: unknown): string {
  if (args === null || typeof args !== 'object') return '';
  return Object.entries(args as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

/** The flags of a run: leaking tutor messages and unanswered help requests, by seq. */
export function runFlags(events: readonly TraceEvent[]): Map<number, string[]> {
  const m = new Map<number, string[]>();
  const add = (seq: number, f: string) => m.set(seq, [...(m.get(seq) ?? []), f]);
  for (const t of tutorTurns(events)) for (const l of t.leaks) add(l.seq, 'gave an answer away');
  for (const h of helpRequests(events)) if (h.answeredBy === null) add(h.seq, 'unanswered');
  return m;
}

/** One day of a run, in order: messages, the tutor's writes, the day's probe, then the verdicts judging that day. */
export function dayEntries(events: readonly TraceEvent[], day: number, flags: Map<number, string[]> = runFlags(events)): DayEntry[] {
  const out: DayEntry[] = [];
  for (const e of events) {
    if (e.type === 'judge_verdict') {
      if (e.day !== day) continue;
      const scores = e.scores ? Object.values(e.scores) : [];
      const mean = scores.length ? (scores.reduce((a, b) => a + b, 0) / scores.length).toFixed(2) : null;
      const what = e.status === 'scored' ? (e.holds !== null ? (e.holds ? 'held the answers' : 'gave answers') : `mean ${mean}`) : `unscored: ${e.reason ?? 'no reason given'}`;
      out.push({ seq: e.seq, kind: 'verdict', text: `${e.judge} on ${e.rubric}: ${what}`, flags: e.status === 'scored' ? [] : ['unscored'] });
      continue;
    }
    if (eventDay(e) !== day) continue;
    if (e.type === 'message') out.push({ seq: e.seq, kind: e.from, text: short(e.text), flags: flags.get(e.seq) ?? [] });
    else if (e.type === 'tool_call' && e.kind === 'write') out.push({ seq: e.seq, kind: 'write', text: short(`${e.tool}(${argsText(e.args)})${e.result.ok ? '' : ` → ${e.result.error.code}`}`, 160), flags: [] });
    else if (e.type === 'probe') out.push({ seq: e.seq, kind: 'probe', text: `Daily check: solve rate ${(e.solveRate * 100).toFixed(1)}%`, flags: [] });
  }
  return out;
}

/** The days the runs cover (1 to the longest run's last day). */
export function comparedDays(traces: readonly (readonly TraceEvent[])[]): number[] {
  let last = 1;
  for (const ev of traces) for (const e of ev) if (e.type !== 'judge_verdict' && e.type !== 'judge_panel') last = Math.max(last, eventDay(e) ?? 1);
  return Array.from({ length: last }, (_, i) => i + 1);
}

/** How many entries of each kind a run has on each day (for the day picker: where things happen). */
export function busyDays(events: readonly TraceEvent[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const e of events) {
    if ((e.type === 'message' && e.from === 'tutor') || (e.type === 'tool_call' && e.kind === 'write')) m.set(eventDay(e)!, (m.get(eventDay(e)!) ?? 0) + 1);
  }
  return m;
}

export type Verdict = EventOf<'judge_verdict'>;
