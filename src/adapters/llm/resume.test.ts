/**
 * Resuming LLM runs against a real local HTTP server that speaks OpenAI chat completions
 * (src/testing/mock-openai-server.ts): an interrupted LLM-tutor run (with and without the LLM
 * student voice) resumes to the trace of the uninterrupted run, byte for byte, and the provider is
 * asked exactly once overall for every call the trace recorded: recorded calls are answered from
 * the trace (ReplayLlm), only the rest goes to the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAi, policyReply, type MockServer, type ScriptedReply, type WireRequest } from '../../testing/mock-openai-server';
import { bktEnv, miniScenario, onBkt } from '../../testing/fixtures';
import { OpenAiCompatClient } from './openai-compat';
import { ProviderSchema } from './config';
import { executeRun, hashString, llmTutorConfig, parseJsonl, resumePoint, runRecord, toJsonl, type RunEnv, type RunRecord, type RunResult, type TraceEvent } from '../../core/index';

/**
 * policyReply with tool-call ids that depend on the request only. The mock server numbers ids by
 * its own request counter (call_<n>_<i>), so the same request gets another id in a later run and
 * every later request (which quotes the id) differs: such a server is not deterministic given the
 * request, and a resumed run (fewer requests to the server) could not equal an uninterrupted one.
 */
function deterministic(body: WireRequest): ScriptedReply {
  const r = policyReply(body);
  if (r.kind !== 'chat' || !r.toolCalls) return r;
  const h = hashString(JSON.stringify(body.messages)).toString(36);
  return { ...r, toolCalls: r.toolCalls.map((c, i) => ({ ...c, id: `call_${h}_${i}` })) };
}

let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi(deterministic);
});
afterAll(() => srv.close());

type Config = { name: string; harness: 'reactive' | 'notes' | 'curriculum'; voice: boolean };
const CONFIGS: Config[] = [
  { name: 'reactive tutor, template voice', harness: 'reactive', voice: false },
  { name: 'notes tutor, LLM student voice', harness: 'notes', voice: true },
];

const modelCalls = (ev: readonly TraceEvent[]) => ev.filter((e): e is Extract<TraceEvent, { type: 'model_call' }> => e.type === 'model_call');
const answered = (ev: readonly TraceEvent[]) => modelCalls(ev).filter((c) => c.response !== null).length;
const stored = (events: readonly TraceEvent[]): TraceEvent[] => parseJsonl(toJsonl(events)).events;

function setup(c: Config, maxRetries = 3): { record: RunRecord; env: RunEnv } {
  // The server starts in beforeAll: the provider is read when a run asks for a client.
  const p = () => ProviderSchema.parse({ name: 'local', baseURL: srv.url, backoffMs: 5, maxRetries, models: { 'tutor-m': { input: 0.5, output: 1.5 } } });
  const record = runRecord({
    scenario: onBkt(miniScenario()),
    tutor: { name: 'llm', config: llmTutorConfig({ harness: c.harness, model: 'tutor-m', provider: 'local' }) },
    ...(c.voice ? { voice: { kind: 'llm' as const, provider: 'local', model: 'student-m' } } : {}),
  });
  return { record, env: bktEnv({ llm: ({ model }) => new OpenAiCompatClient(p(), model, { apiKey: 'sk-test' }) }) };
}

/** Runs and counts the requests the server received meanwhile. */
async function counted(f: () => Promise<RunResult>): Promise<{ res: RunResult; requests: number }> {
  const n0 = srv.requests.length;
  const res = await f();
  return { res, requests: srv.requests.length - n0 };
}

/** Resumes from a stored trace; checks the replayed flags; returns the result and the requests sent. */
async function resume(record: RunRecord, env: RunEnv, prefix: readonly TraceEvent[]) {
  const n = resumePoint(prefix).length;
  const replayed: boolean[] = [];
  const out = await counted(() => executeRun(record, env, { resume: prefix, onEvent: (e, r) => (replayed[e.seq] = r) }));
  expect(replayed.findIndex((r, seq) => r !== seq < n)).toBe(-1);
  return out;
}

describe.each(CONFIGS)('resuming an LLM run over HTTP: $name', (c) => {
  const { record, env } = setup(c);
  let full: RunResult;
  let text: string;
  let T: number;

  beforeAll(async () => {
    srv.setHandler(deterministic);
    const r = await counted(() => executeRun(record, env));
    full = r.res;
    text = toJsonl(full.events);
    T = r.requests;
  });

  it('the uninterrupted run: one request per recorded model call, and the same trace when run again', async () => {
    expect(full.reason).toBe('horizon_reached');
    const calls = modelCalls(full.events);
    expect(T).toBe(calls.length);
    expect(calls.every((m) => m.response !== null && m.retries === 0)).toBe(true);
    if (c.voice) expect(calls.some((m) => m.role === 'student')).toBe(true);
    const again = await counted(() => executeRun(record, env));
    expect(toJsonl(again.res.events)).toBe(text);
    expect(again.requests).toBe(T);
  });

  it('aborted through the AbortSignal after the k-th model call (inside turns, between turns, at the voice), resumed: the same trace, every call sent exactly once overall', async () => {
    const calls = modelCalls(full.events);
    // The k (1-based) of model calls followed, in the same turn, by another model call; of the last call of a turn; of a student call.
    const ks = new Set<number>();
    const nextInTurn = calls.findIndex((m, i) => m.role === 'tutor' && calls[i + 1]?.role === 'tutor' && calls[i + 1]!.turn === m.turn && !full.events.slice(m.seq, calls[i + 1]!.seq).some((e) => e.type === 'turn_end'));
    expect(nextInTurn).toBeGreaterThanOrEqual(0);
    ks.add(nextInTurn + 1);
    ks.add(calls.findIndex((m, i) => m.role === 'tutor' && full.events.slice(m.seq, calls[i + 1]?.seq ?? full.events.length).some((e) => e.type === 'turn_end')) + 1);
    if (c.voice) ks.add(calls.findIndex((m) => m.role === 'student') + 1);
    ks.add(Math.ceil(calls.length / 2));
    ks.add(calls.length - 1);
    for (const k of ks) {
      const ac = new AbortController();
      let seen = 0;
      const store: TraceEvent[] = [];
      const first = await counted(() =>
        executeRun(record, env, {
          signal: ac.signal,
          onEvent: (e) => {
            store.push(e);
            if (e.type === 'model_call' && ++seen === k) ac.abort();
          },
        }),
      );
      expect(first.res.reason, `k=${k}`).toBe('aborted');
      // The abort comes while recording a reply, when no request is in flight; the next call sees the
      // aborted signal and never reaches the server (it is recorded as failed, LLM_ABORTED, and dropped on resume).
      expect(first.requests).toBe(k);
      expect(answered(first.res.events)).toBe(k);
      const second = await resume(record, env, stored(store));
      expect(toJsonl(second.res.events), `k=${k}`).toBe(text);
      expect(first.requests + second.requests, `k=${k}`).toBe(T);
    }
  });

  it('aborted at events between model calls (a wake, a turn_end, an attempt): the same trace, every call sent exactly once overall', async () => {
    const ev = full.events;
    const wakeWithCall = ev.find((e) => e.type === 'wake' && ev[e.seq + 1]?.type === 'model_call')!;
    const turnEnd = ev.filter((e) => e.type === 'turn_end')[5]!;
    const attempts = ev.filter((e) => e.type === 'attempt');
    for (const at of [wakeWithCall.seq, turnEnd.seq, attempts[attempts.length >> 1]!.seq]) {
      const ac = new AbortController();
      const store: TraceEvent[] = [];
      const first = await counted(() => executeRun(record, env, { signal: ac.signal, onEvent: (e) => (store.push(e), e.seq === at && ac.abort()) }));
      expect(first.res.reason).toBe('aborted');
      expect(first.requests).toBe(answered(first.res.events));
      const second = await resume(record, env, stored(store));
      expect(toJsonl(second.res.events), `abort at ${at}`).toBe(text);
      expect(first.requests + second.requests).toBe(T);
    }
  });

  it('cut (a crash that left a prefix of the trace) inside and between turns: the resumed run asks the server only for the calls the prefix did not record', async () => {
    const ev = full.events;
    const calls = modelCalls(ev);
    const cuts = [
      1,
      calls[1]!.seq + 1, // right after a model call, inside its turn
      calls[2]!.seq, // right before one
      ev.filter((e) => e.type === 'turn_end')[3]!.seq + 1, // between turns
      ev.length - 1, // all but run_end
    ];
    for (const k of cuts) {
      const prefix = stored(ev.slice(0, k));
      const r = await resume(record, env, prefix);
      expect(toJsonl(r.res.events), `cut at ${k}`).toBe(text);
      expect(r.requests, `cut at ${k}`).toBe(T - modelCalls(prefix).length);
    }
  });

  it('aborted while a request is in flight: that call was never recorded, so it is sent again on resume (exactly one request more than T overall)', async () => {
    const j = Math.floor(T / 2);
    const ac = new AbortController();
    let seenByServer = 0;
    srv.setHandler((body) => {
      if (seenByServer++ === j) {
        ac.abort();
        return { kind: 'delay', ms: 300, then: deterministic(body) };
      }
      return deterministic(body);
    });
    const store: TraceEvent[] = [];
    const first = await counted(() => executeRun(record, env, { signal: ac.signal, onEvent: (e) => store.push(e) }));
    srv.setHandler(deterministic);
    expect(first.res.reason).toBe('aborted');
    expect(first.requests).toBe(j + 1);
    expect(answered(first.res.events)).toBe(j);
    const lost = modelCalls(first.res.events).filter((m) => m.response === null);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.error?.code).toBe('LLM_ABORTED');
    const second = await resume(record, env, stored(store));
    expect(toJsonl(second.res.events)).toBe(text);
    expect(second.requests).toBe(T - j);
    expect(first.requests + second.requests).toBe(T + 1);
  });
});

describe('a provider outage ends an LLM run with llm_error; resumed when the provider is back, it completes with the uninterrupted trace', () => {
  const MAX_RETRIES = 1;
  it.each([
    { who: 'the tutor', c: CONFIGS[0]!, role: 'tutor' as const },
    { who: 'the student voice', c: CONFIGS[1]!, role: 'student' as const },
  ])('an outage at a call of $who', async ({ c, role }) => {
    srv.setHandler(deterministic);
    const { record, env } = setup(c, MAX_RETRIES);
    const base = await counted(() => executeRun(record, env));
    const T = base.requests;
    const text = toJsonl(base.res.events);
    const calls = modelCalls(base.res.events);
    // The outage starts at the first call of `role` past the middle of the run.
    const j = calls.findIndex((m, i) => i >= calls.length / 2 && m.role === role);
    expect(j).toBeGreaterThan(0);
    let n = 0;
    let down = false;
    srv.setHandler((body) => {
      if (n++ === j) down = true;
      return down ? { kind: 'status', status: 500 } : deterministic(body);
    });
    const store: TraceEvent[] = [];
    const first = await counted(() => executeRun(record, env, { onEvent: (e) => store.push(e) }));
    expect(first.res.reason).toBe('llm_error');
    // j calls answered, then the failing call: 1 try + MAX_RETRIES retries, all 500.
    expect(first.requests).toBe(j + 1 + MAX_RETRIES);
    const tail = first.res.events.slice(-3);
    expect(tail.map((e) => e.type)).toEqual(['model_call', 'error', 'run_end']);
    expect(tail[0]).toMatchObject({ role, response: null, retries: MAX_RETRIES, error: { code: 'LLM_SERVER' } });
    expect(tail[1]).toMatchObject({ code: 'LLM_SERVER' });
    expect(tail[2]).toMatchObject({ reason: 'llm_error' });
    // Everything before the failed call is the uninterrupted run's.
    expect(toJsonl(first.res.events.slice(0, -3))).toBe(toJsonl(base.res.events.slice(0, first.res.events.length - 3)));

    srv.setHandler(deterministic);
    // resumePoint drops run_end, the error and the failed call: the call is made again live and,
    // against a deterministic server that is back, gets the reply (and retries: 0) the
    // uninterrupted run got, so the resumed trace is the uninterrupted one exactly; the failed
    // attempts are not in it (they cost MAX_RETRIES + 1 requests that left no trace but the run
    // that stopped).
    const stopped = stored(store);
    expect(resumePoint(stopped)).toHaveLength(stopped.length - 3);
    const second = await resume(record, env, stopped);
    expect(second.res.reason).toBe('horizon_reached');
    expect(toJsonl(second.res.events)).toBe(text);
    expect(second.requests).toBe(T - j);
    expect(first.requests + second.requests).toBe(T + 1 + MAX_RETRIES);
  });
});
