/**
 * The LLM fault campaign: many runs of the LLM tutor (three harnesses) on the 3-day fixture
 * against the scripted chat-completions server (src/testing/mock-openai-server.ts), with faults
 * injected into a seeded share of the requests: 429 with Retry-After, 500, 503, hangs past the
 * timeout, dropped connections, bodies that are not JSON, `choices: []`, a choice without a
 * message, malformed and wrong-typed tool arguments, unknown tools. Then a judge panel over
 * finished runs, with judge replies that are not JSON, out of range, missing items or of the
 * wrong type.
 *
 * Each run is judged: completed (reached its horizon) or stopped with a named reason (llm_error,
 * an error event with an LLM_* code and a message naming provider and model, and then resumed
 * with a healthy server to its horizon, keeping every stored event) count as handled; a thrown
 * exception or another reason is a crash; a trace the strict reader refuses is silently wrong; a
 * request the trace does not account for (the sum of 1 + retries over model_call events against
 * the requests the server saw), or a resumed run that changed a stored event, is data lost. Each
 * verdict: scored only with what a valid reply said (the scripted judge gives 4 on every item),
 * else unscored with a reason; a scored verdict with any other score is a defaulted verdict
 * (silently wrong).
 */
import { afterAll, beforeAll, it } from 'vitest';
import { LlmError, PANEL_DEFAULTS, executeRun, judgeTrace, llmTutorConfig, parseJsonl, resumePoint, runRecord, toJsonl, withVerdicts, type LlmClient, type RunResult, type TraceEvent } from '../../src/core/index';
import { OpenAiCompatClient } from '../../src/adapters/llm/openai-compat';
import { ProviderSchema } from '../../src/adapters/llm/config';
import { bktEnv, miniScenario, onBkt } from '../../src/testing/fixtures';
import { chat, policyReply, startMockOpenAi, type MockServer, type ScriptedReply, type WireRequest } from '../../src/testing/mock-openai-server';
import { newTally, note, rng, writeTallies } from './tally';

const RUNS = Number(process.env.FAULTS_LLM_RUNS ?? 60);
let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

type Fault = (body: WireRequest) => ScriptedReply;
const TRANSPORT: Record<string, Fault> = {
  '429 + Retry-After': () => ({ kind: 'status', status: 429, headers: { 'retry-after': '0.02' } }),
  '500': () => ({ kind: 'status', status: 500 }),
  '503': () => ({ kind: 'status', status: 503 }),
  hang: () => ({ kind: 'delay', ms: 3000, then: chat('too late') }),
  reset: () => ({ kind: 'reset' }),
  'not JSON': () => ({ kind: 'raw', status: 200, text: '<html>502 Bad Gateway</html>' }),
  'choices: []': () => ({ kind: 'raw', status: 200, text: JSON.stringify({ id: 'x', object: 'chat.completion', choices: [] }) }),
  'no message': () => ({ kind: 'raw', status: 200, text: JSON.stringify({ id: 'x', choices: [{ index: 0, finish_reason: 'stop' }] }) }),
};
const MODEL: Record<string, Fault> = {
  'malformed tool arguments': () => chat(null, [{ name: 'get_gradebook', arguments: '{"last_n": 5' }]),
  'wrong-typed tool arguments': () => chat(null, [{ name: 'get_gradebook', arguments: '{"last_n":"ten","skill_id":[1]}' }]),
  'unknown tool': () => chat(null, [{ name: 'drop_all_tables', arguments: '{}' }]),
  'arguments not an object': () => chat(null, [{ name: 'send_message', arguments: '["hi"]' }]),
};
const JUDGE: Record<string, Fault> = {
  'judge: not JSON': () => chat('The tutor did well, I would say a 4.'),
  'judge: out of range': (b) => chat(JSON.stringify(Object.fromEntries(itemsOf(b).map((k) => [k, 99])))),
  'judge: missing items': (b) => chat(JSON.stringify(Object.fromEntries(itemsOf(b).slice(0, 1).map((k) => [k, 4])))),
  'judge: wrong types': (b) => chat(JSON.stringify(Object.fromEntries(itemsOf(b).map((k) => [k, 'four'])))),
};
function itemsOf(b: WireRequest): string[] {
  const sys = b.messages[0]?.content ?? '';
  if (sys.includes('"held"')) return ['held'];
  return [...sys.matchAll(/"(\w+)": <integer/g)].map((m) => m[1]!);
}

function client(model: string, extra: Record<string, unknown> = {}): LlmClient {
  return new OpenAiCompatClient(ProviderSchema.parse({ name: 'mock', baseURL: srv.url, timeoutMs: 250, maxRetries: 2, backoffMs: 1, maxRetryAfterMs: 5000, ...extra }), model, { apiKey: 'sk-faults-NOTAKEY-0000000000' });
}

it(`LLM fault campaign: ${RUNS} runs, then judging`, async () => {
  const runs = newTally('LLM tutor runs under faults (transport and model)');
  const calls = newTally('LLM calls under faults');
  const verdicts = newTally('judge verdicts under faults');
  const resumed = newTally('runs stopped by a fault, resumed');
  const faultCounts = new Map<string, number>();
  const finished: TraceEvent[][] = [];
  const r = rng(1616);
  const harnesses = ['reactive', 'notes', 'curriculum'] as const;
  for (let k = 0; k < RUNS; k++) {
    const rate = [0.05, 0.15, 0.3][k % 3]!;
    const names = [...Object.keys(TRANSPORT), ...Object.keys(MODEL)];
    srv.setHandler((body) => {
      if (r() < rate) {
        const f = names[Math.floor(r() * names.length)]!;
        faultCounts.set(f, (faultCounts.get(f) ?? 0) + 1);
        return (TRANSPORT[f] ?? MODEL[f])!(body);
      }
      return policyReply(body);
    });
    const harness = harnesses[k % 3]!;
    const record = runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'llm', config: llmTutorConfig({ harness, provider: 'mock', model: 'mock-tutor' }) }, seed: 1 + k });
    const env = bktEnv({ llm: ({ model }) => client(model) });
    const before = srv.requests.length;
    let res: RunResult;
    try {
      res = await executeRun(record, env);
    } catch (e) {
      note(runs, 'crashed', `run ${k}: executeRun threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
      continue;
    }
    // Every request the server saw is in the trace (one model_call per call, its retries counted).
    const seen = srv.requests.length - before;
    const mc = res.events.filter((e) => e.type === 'model_call');
    const accounted = mc.reduce((s, e) => s + (e.type === 'model_call' ? 1 + e.retries : 0), 0);
    for (const e of mc) if (e.type === 'model_call') note(calls, e.response ? 'completed' : e.error && /^LLM_/.test(e.error.code) && e.error.message ? 'clearError' : 'crashed', JSON.stringify(e.error ?? null));
    let text: string;
    try {
      text = toJsonl(parseJsonl(toJsonl(res.events), `run-${k}.jsonl`).events);
    } catch (e) {
      note(runs, 'silentlyWrong', `run ${k}: the strict reader refuses its trace: ${(e as Error).message}`);
      continue;
    }
    if (accounted !== seen) {
      note(runs, 'dataLost', `run ${k}: the server saw ${seen} requests, the trace accounts for ${accounted}`);
      continue;
    }
    if (res.reason === 'horizon_reached') {
      note(runs, 'completed');
      finished.push(res.events);
      continue;
    }
    const err = res.events.find((e) => e.type === 'error');
    if (res.reason !== 'llm_error' || !err || err.type !== 'error' || !/^LLM_/.test(err.code) || !/mock\/mock-tutor/.test(err.message)) {
      note(runs, 'crashed', `run ${k}: stopped with ${res.reason}: ${res.message ?? ''} (${err?.type === 'error' ? `${err.code}: ${err.message}` : 'no error event'})`);
      continue;
    }
    note(runs, 'clearError');
    // Resume with a healthy server: the stored part is kept byte for byte, the run reaches its horizon.
    srv.setHandler(policyReply);
    try {
      const kept = resumePoint(res.events);
      const again = await executeRun(record, env, { resume: res.events });
      const a = toJsonl(kept);
      const b = toJsonl(again.events);
      if (!b.startsWith(a)) note(resumed, 'dataLost', `run ${k}: the resumed trace changed a stored event`);
      else if (again.reason !== 'horizon_reached') note(resumed, 'crashed', `run ${k}: the resume stopped: ${again.reason}: ${again.message ?? ''}`);
      else {
        parseJsonl(b, `resumed-${k}.jsonl`);
        note(resumed, 'completed');
      }
    } catch (e) {
      note(resumed, 'crashed', `run ${k}: resume threw ${(e as Error).message}`);
    }
    void text;
  }

  // Judging finished runs with judge faults (and transport faults) in a share of the replies.
  const jr = rng(2626);
  const jnames = [...Object.keys(JUDGE), '500', 'not JSON', 'choices: []'];
  srv.setHandler((body) => {
    if (jr() < 0.3) {
      const f = jnames[Math.floor(jr() * jnames.length)]!;
      faultCounts.set(f, (faultCounts.get(f) ?? 0) + 1);
      return (JUDGE[f] ?? TRANSPORT[f])!(body);
    }
    return policyReply(body);
  });
  for (const [k, events] of finished.slice(0, 12).entries()) {
    try {
      const out = await judgeTrace(events, { ...PANEL_DEFAULTS, id: 'faults', judges: [{ id: 'j4', client: client('judge-4', { maxRetries: 1 }) }], daysPerRun: null, attempts: 2 });
      parseJsonl(toJsonl(withVerdicts(events, out.events)), `judged-${k}.jsonl`);
      for (const v of out.events) {
        if (v.type !== 'judge_verdict') continue;
        if (v.status === 'unscored') note(verdicts, v.reason ? 'clearError' : 'silentlyWrong', 'an unscored verdict without a reason');
        else if (v.holds !== null) note(verdicts, v.holds === true ? 'completed' : 'silentlyWrong', `holds ${v.holds}`);
        else note(verdicts, Object.values(v.scores ?? {}).every((x) => x === 4) ? 'completed' : 'silentlyWrong', `a defaulted verdict: ${JSON.stringify(v.scores)}`);
      }
    } catch (e) {
      note(verdicts, e instanceof LlmError ? 'clearError' : 'crashed', `judging ${k} threw ${(e as Error).message}`);
    }
  }
  srv.setHandler(policyReply);
  runs.notes.push(`faults injected: ${[...faultCounts].map(([f, n]) => `${f} ×${n}`).join(', ')}`);
  // Every resumed run was stopped by a fault first: all of them fired.
  resumed.fired = resumed.tried;
  writeTallies('2-llm', [runs, resumed, calls, verdicts]);
});
