/**
 * The judge panel: a list of judges (default three, from different model families), each an
 * LlmClient, scoring sampled days of a trace on versioned rubrics at temperature 0.3.
 *
 * - Sampling: days 1..(days the run lasted) are cut into `strata` equal ranges and `daysPerRun`
 *   days are drawn evenly across them (seeded by the run id, so re-judging samples the same days).
 *   Gagné and Rosenshine skip day 1.
 * - Every judge scores every (rubric, sampled day). A reply is parsed as JSON and validated
 *   (zod); a malformed reply is retried (`attempts` in all) with the validation error, and then
 *   recorded as unscored with its reason. Nothing ever becomes a default number.
 * - A provider error (after the client's own retries) makes that verdict unscored; a judge whose
 *   provider fails `maxConsecutiveFailures` times in a row is stopped, its remaining verdicts
 *   unscored with the named reason, and the panel event lists it.
 * - Cancelling (signal) stops the panel and returns nothing: partial panels are not stored.
 */
import { z } from 'zod';
import type { EventOf, TraceEvent } from '../trace/types';
import type { NewEvent } from '../trace/recorder';
import type { ChatMessage, ChatRequest, LlmClient, TokenUsage } from '../llm/types';
import { LlmError, isLlmError } from '../llm/types';
import { parseJsonReply } from '../llm/json';
import { Rng, hashString } from '../rng';
import { RUBRICS, RUBRIC_IDS, rubricPrompt, type Rubric, type RubricId } from '../rubrics/index';
import { dayTranscript } from './transcript';

export interface JudgeSpec {
  /** Short id shown in reports, e.g. "gpt-4.1-mini@openai". */
  id: string;
  client: LlmClient;
}

export interface PanelOptions {
  /** Panel name recorded with the verdicts. */
  id: string;
  judges: JudgeSpec[];
  rubrics: readonly RubricId[];
  temperature: number;
  /** Days judged per run (null: every day). */
  daysPerRun: number | null;
  strata: number;
  /** Tries per verdict when replies are malformed (first try included). */
  attempts: number;
  /** Consecutive provider failures after which a judge is stopped. */
  maxConsecutiveFailures: number;
  /** Concurrent requests per judge from this panel (the client may limit further per provider). */
  concurrency: number;
}

export const PANEL_DEFAULTS: Omit<PanelOptions, 'id' | 'judges'> = {
  rubrics: RUBRIC_IDS,
  temperature: 0.3,
  daysPerRun: 6,
  strata: 3,
  attempts: 3,
  maxConsecutiveFailures: 3,
  concurrency: 4,
};

/** Stratified sample of days 1..lastDay: `n` days spread evenly over `strata` equal ranges. */
export function sampleDays(lastDay: number, n: number | null, strata: number, seed: number): number[] {
  const all = Array.from({ length: lastDay }, (_, i) => i + 1);
  if (n === null || n >= lastDay) return all;
  const rng = new Rng(seed);
  const k = Math.max(1, Math.min(strata, n, lastDay));
  const out: number[] = [];
  for (let s = 0; s < k; s++) {
    const lo = Math.floor((s * lastDay) / k);
    const hi = Math.floor(((s + 1) * lastDay) / k);
    const take = Math.floor(n / k) + (s >= k - (n % k) ? 1 : 0);
    out.push(...rng.shuffle(all.slice(lo, hi)).slice(0, take));
  }
  return out.sort((a, b) => a - b);
}

function schemaFor(r: Rubric): z.ZodType {
  if (r.kind === 'binary') return z.object({ held: z.boolean() }).loose();
  const shape: Record<string, z.ZodType> = {};
  for (const it of r.items) shape[it.id] = z.number().int().min(r.min).max(r.max);
  return z.object(shape).loose();
}

type Verdict = Omit<EventOf<'judge_verdict'>, 'seq' | 't' | 'type' | 'panel'>;

const RAW_MAX = 4000;
const clip = (s: string | null) => (s === null ? null : s.length > RAW_MAX ? `${s.slice(0, RAW_MAX)}…` : s);
const addUsage = (a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null => (b ? { promptTokens: (a?.promptTokens ?? 0) + b.promptTokens, completionTokens: (a?.completionTokens ?? 0) + b.completionTokens } : a);

export interface PanelProgress {
  done: number;
  total: number;
}

export interface PanelResult {
  /** Events to append after run_end (judge_panel, then one judge_verdict per judge × rubric × day). */
  events: NewEvent[];
  scored: number;
  unscored: number;
  stopped: { judge: string; reason: string }[];
  usage: TokenUsage | null;
  cost: number | null;
}

/** Runs `n` workers over the tasks (in order); a tiny pool, so the core needs no library for it. */
async function pool<T>(tasks: (() => Promise<T>)[], n: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, tasks.length)) }, worker));
  return out;
}

export async function judgeTrace(events: readonly TraceEvent[], o: PanelOptions, run: { signal?: AbortSignal; onProgress?: (p: PanelProgress) => void } = {}): Promise<PanelResult> {
  const start = events[0];
  if (!start || start.type !== 'run_start') throw new Error('a trace starts with run_start');
  const end = events.find((e): e is EventOf<'run_end'> => e.type === 'run_end');
  if (!end) throw new Error(`run ${start.runId} has no run_end (it was cut short); judge finished runs only`);
  if (o.judges.length === 0) throw new LlmError('LLM_CONFIG', 'the judge panel has no judges');
  const ids = new Set(o.judges.map((j) => j.id));
  if (ids.size !== o.judges.length) throw new LlmError('LLM_CONFIG', 'judge ids must be different');
  const seed = hashString(`${start.runId}:judge-days`);
  const days = sampleDays(Math.max(1, Math.min(end.days, start.scenario.horizonDays)), o.daysPerRun, o.strata, seed);
  const rubrics = o.rubrics.map((id) => RUBRICS[id]);
  const units: { rubric: Rubric; day: number }[] = [];
  for (const r of rubrics) for (const d of days) if (d >= r.fromDay) units.push({ rubric: r, day: d });
  const transcripts = new Map<string, string>();
  const transcript = (r: Rubric, day: number) => {
    const key = `${r.withAnswers}:${day}`;
    let t = transcripts.get(key);
    if (t === undefined) transcripts.set(key, (t = dayTranscript(events, day, { withAnswers: r.withAnswers }).text));
    return t;
  };

  const total = units.length * o.judges.length;
  let done = 0;
  const stopped: { judge: string; reason: string }[] = [];

  const judgeOne = async (j: JudgeSpec, state: { failures: number; stopped: string | null }, r: Rubric, day: number): Promise<Verdict> => {
    const base = { rubric: r.id, rubricVersion: r.version, judge: j.id, provider: j.client.provider, model: j.client.model, day };
    const finish = (v: Verdict) => {
      done++;
      run.onProgress?.({ done, total });
      return v;
    };
    if (state.stopped) return finish({ ...base, status: 'unscored', scores: null, holds: null, reason: state.stopped, attempts: 0, usage: null, cost: null, raw: null });
    const messages: ChatMessage[] = [
      { role: 'system', content: rubricPrompt(r, start.scenario.horizonDays) },
      { role: 'user', content: transcript(r, day) },
    ];
    let usage: TokenUsage | null = null;
    let cost: number | null = null;
    let raw: string | null = null;
    let lastError = '';
    for (let attempt = 1; attempt <= o.attempts; attempt++) {
      if (run.signal?.aborted) throw new LlmError('LLM_ABORTED', 'judging was cancelled');
      const req: ChatRequest = { messages: [...messages], temperature: o.temperature, json: true };
      let res;
      try {
        res = await j.client.chat(req, run.signal);
      } catch (e) {
        if (run.signal?.aborted) throw new LlmError('LLM_ABORTED', 'judging was cancelled');
        const code = isLlmError(e) ? e.code : 'LLM_UNKNOWN';
        const msg = e instanceof Error ? e.message : String(e);
        state.failures++;
        if (state.failures >= o.maxConsecutiveFailures && !state.stopped) {
          state.stopped = `judge stopped: its provider failed ${state.failures} times in a row (last: ${code}: ${msg})`;
          stopped.push({ judge: j.id, reason: state.stopped });
        }
        return finish({ ...base, status: 'unscored', scores: null, holds: null, reason: `provider error ${code}: ${msg}`, attempts: attempt, usage, cost, raw });
      }
      state.failures = 0;
      usage = addUsage(usage, res.usage);
      cost = res.cost === null ? cost : (cost ?? 0) + res.cost;
      raw = clip(res.content);
      const parsed = parseJsonReply(res.content, schemaFor(r));
      if (parsed.ok) {
        const v = parsed.value as Record<string, unknown>;
        if (r.kind === 'binary') return finish({ ...base, status: 'scored', scores: null, holds: v.held as boolean, attempts: attempt, usage, cost, raw });
        const scores = Object.fromEntries(r.items.map((it) => [it.id, v[it.id] as number]));
        return finish({ ...base, status: 'scored', scores, holds: null, attempts: attempt, usage, cost, raw });
      }
      lastError = parsed.error;
      messages.push({ role: 'assistant', content: res.content ?? '' }, { role: 'user', content: `Your reply could not be used: ${parsed.error}. Reply again with the JSON object only, in exactly the format asked.` });
    }
    return finish({ ...base, status: 'unscored', scores: null, holds: null, reason: `malformed reply after ${o.attempts} attempts: ${lastError}`, attempts: o.attempts, usage, cost, raw });
  };

  const perJudge = await Promise.all(
    o.judges.map((j) => {
      const state = { failures: 0, stopped: null as string | null };
      return pool(
        units.map((u) => () => judgeOne(j, state, u.rubric, u.day)),
        o.concurrency,
      );
    }),
  );

  const verdicts: Verdict[] = [];
  for (let u = 0; u < units.length; u++) for (let j = 0; j < o.judges.length; j++) verdicts.push(perJudge[j]![u]!);
  const t = end.t;
  const panelEvent: NewEvent = {
    type: 'judge_panel',
    t,
    panel: o.id,
    judges: o.judges.map((j) => ({ id: j.id, provider: j.client.provider, model: j.client.model, family: j.client.family })),
    temperature: o.temperature,
    rubrics: rubrics.map((r) => ({ id: r.id, version: r.version })),
    days,
    sampling: { daysPerRun: o.daysPerRun, strata: o.strata, seed },
    ...(stopped.length ? { stopped } : {}),
  } as NewEvent;
  const out: NewEvent[] = [panelEvent, ...verdicts.map((v) => ({ type: 'judge_verdict' as const, t, panel: o.id, ...v }))];
  const usage = verdicts.reduce<TokenUsage | null>((a, v) => addUsage(a, v.usage), null);
  const costs = verdicts.filter((v) => v.cost !== null);
  return {
    events: out,
    scored: verdicts.filter((v) => v.status === 'scored').length,
    unscored: verdicts.filter((v) => v.status === 'unscored').length,
    stopped,
    usage,
    cost: costs.length ? costs.reduce((a, v) => a + v.cost!, 0) : null,
  };
}

/** The run's own events (everything up to run_end) followed by the new judge events, renumbered. */
export function withVerdicts(events: readonly TraceEvent[], judgeEvents: readonly NewEvent[]): TraceEvent[] {
  const endIdx = events.findIndex((e) => e.type === 'run_end');
  const own = endIdx >= 0 ? events.slice(0, endIdx + 1) : [...events];
  return [...own, ...judgeEvents.map((e, i) => ({ seq: own.length + i, ...e }) as TraceEvent)];
}
