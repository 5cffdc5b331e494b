/**
 * The HTTP tutor ("http"): an agent that is a service. On each wake the engine POSTs the wake, the
 * tool specs and the turn's status to the agent's URL; the agent answers with the tool calls it
 * wants; the engine runs them through the turn (checked and traced like any tutor's) and POSTs
 * their results back; and so on until the agent ends its turn. Exact protocol (bodies, replies,
 * errors, retries): docs/bring-your-own-tutor.md#http.
 *
 * The core does no I/O: the POST goes through an `HttpTransport` the environment supplies
 * (`RunEnv.http`: fetch in Node, adapters/node/agent-http.ts). Every try is recorded as a
 * `model_call` (role tutor, provider "http", purpose "http:wake" or "http:continue") with the
 * agent's reply in full, so a run can be audited, exported for training, and resumed: a resumed
 * run answers the recorded tries from the trace (`ReplayHttp`), never POSTing them again.
 *
 * Failures: a timeout, a network error, a 408/429/5xx or a reply that is not the protocol's JSON
 * is tried again (`retries` times per step, with backoff; a malformed reply is answered with the
 * error, so the agent can correct itself); then the run ends with reason tutor_error and the
 * error's AGENT_* code. Unknown tools and bad arguments are ordinary tool errors: the agent gets
 * them as results, as an LLM tutor does.
 */
import { z } from 'zod';
import type { Tutor, TutorContext, TutorEntry } from '../types';
import type { ModelCallRecord } from '../../llm/types';
import { CUT_MARKER, MAX_RECORDED_CONTENT } from '../../llm/types';
import type { EventOf, TraceEvent } from '../../trace/types';
import { hashString } from '../../rng';
import { runWarnings } from '../../scoring/warnings';
import { SimError } from '../../errors';
import { LMS_TOOL_SPECS } from '../llm/loop';
import { argsOverLimit } from '../../limits';
import type { HttpReply, HttpTransport } from './transport';
import { AgentError, agentInstructions, externalRunLabel, statusView, wakeView, type CallResultView, type TurnStatusView, type WakeView } from './protocol';

/** The version of the HTTP bodies (in every body as `protocol`). */
export const HTTP_PROTOCOL = 'educlaw-http-tutor/1';

export type { HttpReply, HttpTransport } from './transport';

const httpUrl = z.string().refine(
  (u) => {
    try {
      const x = new URL(u);
      return (x.protocol === 'http:' || x.protocol === 'https:') && !x.username && !x.password;
    } catch {
      return false;
    }
  },
  { message: 'an http:// or https:// URL without user:password (keys go in tokenEnv)' },
);

export const HttpTutorConfigSchema = z
  .object({
    /** Where the agent listens (POST). Recorded in the trace: no secrets in it. */
    url: httpUrl,
    /** The agent's name (its hello reply's, or given). Default: the URL's host. */
    name: z.string().trim().min(1).max(80).optional(),
    /** The agent's version, as it reports it. */
    version: z.string().trim().max(80).default(''),
    /** The base model the agent reports ("" when it reports none). */
    model: z.string().trim().max(200).default(''),
    /** Per try: how long to wait for the agent's reply. */
    timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
    /** Tries again per step after a timeout, network error, 408/429/5xx or malformed reply. */
    retries: z.number().int().min(0).max(10).default(2),
    /** Backoff before retry n: backoffMs × 2^(n−1). */
    backoffMs: z.number().int().min(0).max(60_000).default(500),
    /** Round trips per wake before the turn is cut (the scenario's tool-call limit applies too). */
    maxStepsPerWake: z.number().int().min(1).max(200).default(16),
    /** An environment variable holding a bearer token (read by the transport; never recorded). */
    tokenEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .optional(),
    protocol: z.literal(HTTP_PROTOCOL).default(HTTP_PROTOCOL),
  })
  .strict();
export type HttpTutorConfigInput = z.input<typeof HttpTutorConfigSchema>;
export type HttpTutorConfig = z.infer<typeof HttpTutorConfigSchema> & { name: string };

/** Validates an http tutor config and fills its defaults (the name: the URL's host): the form a trace records. */
export function httpTutorConfig(input: Record<string, unknown>): HttpTutorConfig {
  const r = HttpTutorConfigSchema.safeParse(input);
  if (!r.success) throw new AgentError('AGENT_CONFIG', `http tutor config: ${r.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ')}`);
  const c = r.data;
  // Key order as the schema's, so a config read back from a trace parses to the same text.
  const { url, name, ...rest } = c;
  return { url, name: name ?? new URL(url).host, ...rest };
}

const ArgsSchema = z.union([z.record(z.string(), z.unknown()), z.string()]).optional();
/** Argument fields of other tool-call formats that this protocol does not read: a call using one is refused by name, never run with no arguments. */
const FOREIGN_ARGS = ['parameters', 'input'] as const;

/**
 * A tool call as the agent writes it. `args`: an object, or its JSON text (as a model writes it);
 * absent: {}. `arguments` (OpenAI's name, what an agent forwarding a model's tool_calls writes) is
 * read as `args`; both at once, or `parameters`/`input` instead, is a reply that cannot be used
 * (issue 35: an agent writing `arguments` got INVALID_ARGS on every call and a run that scored).
 */
const AgentCallSchema = z
  .object({
    id: z.string().min(1).max(200).optional(),
    name: z.string().min(1).max(200),
    args: ArgsSchema,
    arguments: ArgsSchema,
  })
  .loose()
  .superRefine((c, ctx) => {
    if (c.args !== undefined && c.arguments !== undefined) ctx.addIssue({ code: 'custom', message: 'give the arguments once, as "args" (or "arguments"), not both', path: ['arguments'] });
    if (c.args === undefined && c.arguments === undefined)
      for (const k of FOREIGN_ARGS) if ((c as Record<string, unknown>)[k] !== undefined) ctx.addIssue({ code: 'custom', message: `"${k}" is not read: this protocol's arguments field is "args" (or "arguments")`, path: [k] });
  })
  .transform(({ arguments: a, ...c }) => (c.args === undefined && a !== undefined ? { ...c, args: a } : c));

/** Most calls one reply may carry. */
export const MAX_CALLS_PER_REPLY = 50;

/** The agent's answer to a wake or continue POST. */
export const AgentReplySchema = z
  .object({
    calls: z.array(AgentCallSchema).max(MAX_CALLS_PER_REPLY).default([]),
    /** true: the turn ends after these calls (their results are not sent). No calls ends it too. */
    end: z.boolean().default(false),
    /** Free text for the record (the agent's reasoning, say); the learner never sees it. */
    note: z.string().max(4000).optional(),
  })
  .loose();
export type AgentReply = z.infer<typeof AgentReplySchema>;

/** The agent's answer to hello. */
export const HelloReplySchema = z
  .object({
    protocol: z.string().optional(),
    agent: z.object({ name: z.string().trim().min(1).max(80), version: z.string().trim().max(80).optional(), model: z.string().trim().max(200).optional() }).loose(),
  })
  .loose();

/** The POST after a run ended (docs/bring-your-own-tutor.md#http): how it went. Any 2xx answers it; the body is not read. */
export interface RunEndBody {
  protocol: typeof HTTP_PROTOCOL;
  type: 'run_end';
  run_id: string;
  reason: string;
  message: string | null;
  days: number | null;
  turns: number;
  calls: number;
  failed_calls: number;
  warnings: { code: string; message: string }[];
}

/** Body of a wake or continue POST (docs/bring-your-own-tutor.md#http). */
export interface WakeBody {
  protocol: typeof HTTP_PROTOCOL;
  type: 'wake' | 'continue';
  run_id: string;
  /** This turn's round trip, from 0 (the wake) up. */
  step: number;
  /** The try of this step, from 1; > 1 after a failure. */
  attempt: number;
  wake: WakeView;
  status: TurnStatusView;
  /** The results of the calls of the previous reply (continue), in order. */
  results: CallResultView[];
  tools: typeof LMS_TOOL_SPECS;
  /** The task, on the first POST of a run. */
  instructions?: string;
  /** A retry after a reply that could not be used: why. */
  error?: { code: 'BAD_REPLY'; message: string };
}

export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: `the reply is not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** Reads an agent's reply; the error says what is wrong, for the agent's next try. */
export function parseAgentReply(text: string): { ok: true; value: AgentReply } | { ok: false; error: string } {
  const j = parseJsonText(text);
  if (!j.ok) return j;
  const r = AgentReplySchema.safeParse(j.value);
  if (!r.success) return { ok: false, error: `the reply is not {"calls":[{"name","args"}],"end":boolean}: ${r.error.issues.map((i) => `${i.path.join('.') || 'reply'}: ${i.message}`).join('; ')}` };
  return { ok: true, value: r.data };
}

const digestOf = (body: string) => hashString(body).toString(16).padStart(8, '0');
const cut = (s: string) => (s.length > MAX_RECORDED_CONTENT ? `${s.slice(0, MAX_RECORDED_CONTENT)}… [${s.length - MAX_RECORDED_CONTENT} more characters]` : s);
/** Statuses worth another try. */
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * Asks an agent who it is: POST {"protocol","type":"hello"} → {"agent":{"name","version","model"}}.
 * A caller (the CLI, the page, a classroom) does this before a run, to put the agent's identity in
 * the tutor config; the run itself never says hello.
 */
export async function helloAgent(http: HttpTransport, o: { url: string; timeoutMs?: number; tokenEnv?: string; signal?: AbortSignal }): Promise<{ name: string; version: string; model: string }> {
  const res = await http.post(o.url, JSON.stringify({ protocol: HTTP_PROTOCOL, type: 'hello' }), { timeoutMs: o.timeoutMs ?? 10_000, ...(o.signal ? { signal: o.signal } : {}), ...(o.tokenEnv ? { tokenEnv: o.tokenEnv } : {}) });
  if (res.status < 200 || res.status >= 300) throw new AgentError(retryable(res.status) ? 'AGENT_HTTP_RETRY' : 'AGENT_HTTP_STATUS', `agent at ${o.url} answered hello with HTTP ${res.status}: ${res.text.slice(0, 200)}`);
  const j = parseJsonText(res.text);
  const r = j.ok ? HelloReplySchema.safeParse(j.value) : null;
  if (!r?.success) throw new AgentError('AGENT_BAD_REPLY', `agent at ${o.url} answered hello with something other than {"agent":{"name","version","model"}}: ${res.text.slice(0, 200)}`);
  return { name: r.data.agent.name, version: r.data.agent.version ?? '', model: r.data.agent.model ?? '' };
}

/** Builds the http tutor: one instance per run. */
function createHttpTutor(cfg: HttpTutorConfig, http: HttpTransport, runId: string): Tutor {
  let first = true;
  const post = { timeoutMs: cfg.timeoutMs, ...(cfg.tokenEnv ? { tokenEnv: cfg.tokenEnv } : {}) };

  /** One step: POST (tried again on failures), each try recorded; the usable reply, or an AgentError. */
  async function exchange(ctx: TutorContext, body: Omit<WakeBody, 'attempt' | 'error'>): Promise<AgentReply> {
    const turnNo = body.wake.turn;
    const purpose = `http:${body.type}`;
    let badReply: string | null = null;
    let last: AgentError | null = null;
    const tries = 1 + cfg.retries;
    for (let attempt = 1; attempt <= tries; attempt++) {
      if (attempt > 1) await http.wait(cfg.backoffMs * 2 ** (attempt - 2), ctx.signal);
      const text = JSON.stringify({ ...body, attempt, ...(badReply ? { error: { code: 'BAD_REPLY', message: badReply } } : {}) });
      const base = { role: 'tutor' as const, purpose, provider: 'http', model: cfg.name, request: { messages: 1, chars: text.length, tools: body.tools.length, temperature: null, digest: digestOf(text) }, usage: null, cost: null, retries: attempt - 1 };
      const record = (r: Pick<ModelCallRecord, 'response'> & { error?: { code: string; message: string } }) => ctx.recordModelCall?.({ ...base, ...r });
      let res: HttpReply;
      try {
        res = await http.post(cfg.url, text, { ...post, ...(ctx.signal ? { signal: ctx.signal } : {}) });
      } catch (e) {
        const named = (x: AgentError) => (x.message.startsWith(`agent ${cfg.name}: `) ? x : new AgentError(x.code, `agent ${cfg.name}: ${x.message}`, { cause: x }));
        const err = e instanceof AgentError ? (e.code === 'AGENT_LIMIT' || e.code === 'AGENT_REDIRECT' ? named(e) : e) : new AgentError('AGENT_NETWORK', `agent ${cfg.name}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
        record({ response: null, error: { code: err.code, message: err.message } });
        // Not worth another try: cancelled, misconfigured, a reply over the bounds, a redirect elsewhere.
        if (err.code === 'AGENT_ABORTED' || err.code === 'AGENT_CONFIG' || err.code === 'AGENT_LIMIT' || err.code === 'AGENT_REDIRECT' || ctx.signal?.aborted) throw err;
        last = err;
        continue;
      }
      if (res.status < 200 || res.status >= 300) {
        const err = new AgentError(retryable(res.status) ? 'AGENT_HTTP_RETRY' : 'AGENT_HTTP_STATUS', `agent ${cfg.name} answered HTTP ${res.status}${res.text ? `: ${res.text.slice(0, 200)}` : ''}`);
        record({ response: { content: cut(res.text), toolCalls: [], finishReason: `http_${res.status}` }, error: { code: err.code, message: err.message } });
        if (err.code === 'AGENT_HTTP_STATUS') throw err;
        last = err;
        continue;
      }
      const parsed = parseAgentReply(res.text);
      if (!parsed.ok) {
        badReply = parsed.error;
        last = new AgentError('AGENT_BAD_REPLY', `agent ${cfg.name}: ${parsed.error}`);
        record({ response: { content: cut(res.text), toolCalls: [], finishReason: 'malformed' }, error: { code: last.code, message: last.message } });
        continue;
      }
      const reply = parsed.value;
      // Arguments too deep or too large end the run before any of them is stored (the reply is kept only as its first characters).
      const overAt = reply.calls.findIndex((c) => argsOverLimit(c.args ?? {}) !== null);
      if (overAt >= 0) {
        const c = reply.calls[overAt]!;
        const err = new AgentError('AGENT_LIMIT', `agent ${cfg.name}: call ${overAt} (${c.name}) refused: ${argsOverLimit(c.args ?? {})}; the run ends`);
        record({ response: { content: cut(res.text), toolCalls: [], finishReason: 'refused' }, error: { code: err.code, message: err.message } });
        throw err;
      }
      const toolCalls = reply.calls.map((c, i) => ({ id: c.id ?? `call_${turnNo}_${body.step}_${i}`, name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}) }));
      record({ response: { content: cut(res.text), toolCalls, finishReason: reply.end || reply.calls.length === 0 ? 'end' : 'continue' } });
      return reply;
    }
    throw new AgentError(last!.code, `${last!.message} (${tries} ${tries === 1 ? 'try' : 'tries'})`);
  }

  return {
    /**
     * After run_end: one POST {"type":"run_end", …} telling the agent how the run ended (reason,
     * days, its calls and failed calls, set-up warnings). One try, not recorded (the trace is
     * complete without it): a failure is answered as a notice for the caller to show.
     */
    async onRunEnd(end) {
      const endEv = end.events.find((e): e is EventOf<'run_end'> => e.type === 'run_end');
      const calls = end.events.filter((e): e is EventOf<'tool_call'> => e.type === 'tool_call');
      const body: RunEndBody = {
        protocol: HTTP_PROTOCOL,
        type: 'run_end',
        run_id: end.runId,
        reason: end.reason,
        message: end.message,
        days: endEv?.days ?? null,
        turns: end.events.filter((e) => e.type === 'turn_end').length,
        calls: calls.length,
        failed_calls: calls.filter((c) => !c.result.ok).length,
        warnings: runWarnings(end.events).map((w) => ({ code: w.code, message: w.message })),
      };
      try {
        const res = await http.post(cfg.url, JSON.stringify(body), post);
        return res.status >= 200 && res.status < 300 ? null : `agent ${cfg.name} answered HTTP ${res.status} to the run_end notice`;
      } catch (e) {
        return `agent ${cfg.name} was not told the run ended: ${e instanceof Error ? e.message : String(e)}`;
      }
    },
    async onWake(ctx) {
      const wake = wakeView(ctx.wake);
      let results: CallResultView[] = [];
      for (let step = 0; step < cfg.maxStepsPerWake; step++) {
        const status = ctx.status ? statusView(ctx.status) : { calls: 0, remaining: 0, actions: 0, silent: false };
        const body: Omit<WakeBody, 'attempt' | 'error'> = {
          protocol: HTTP_PROTOCOL,
          type: step === 0 ? 'wake' : 'continue',
          run_id: runId,
          step,
          wake,
          status,
          results,
          tools: LMS_TOOL_SPECS,
          ...(first ? { instructions: agentInstructions(wake.horizon_days, 'http') } : {}),
        };
        const reply = await exchange(ctx, body);
        first = false;
        results = [];
        let over: string | null = null;
        for (const [i, c] of reply.calls.entries()) {
          const id = c.id ?? `call_${wake.turn}_${step}_${i}`;
          const args = c.args ?? {};
          if (over) {
            results.push({ id, name: c.name, args, result: { ok: false, error: { code: 'TURN_OVER', message: `your turn ended (${over}) before this call; it was not run` } } });
            continue;
          }
          const r = ctx.tools.call(c.name, args);
          results.push({ id, name: c.name, args, result: r });
          if (r.ok && c.name === 'stay_silent') over = 'stay_silent';
          if (!r.ok && r.error.code === 'TURN_LIMIT') over = 'the tool-call limit';
        }
        if (reply.end || reply.calls.length === 0 || over) return;
      }
    },
  };
}

export const httpTutor: TutorEntry = {
  name: 'http',
  description: 'An external agent that is a service: each wake is POSTed to its URL and it answers with tool calls (docs/bring-your-own-tutor.md).',
  needs: ['http'],
  configSchema: HttpTutorConfigSchema,
  parseConfig: (config) => httpTutorConfig(config),
  runLabel: (config) => {
    const c = httpTutorConfig(config);
    return externalRunLabel('http', c.name, c.model);
  },
  create({ config, http, runId }) {
    const cfg = httpTutorConfig(config);
    if (!http) throw new AgentError('AGENT_CONFIG', 'the http tutor needs an HTTP transport: run it from the CLI (run, sweep), a classroom server, or a page whose agent URL allows the page (CORS)');
    return createHttpTutor(cfg, http, runId ?? 'run');
  },
};

/**
 * Answers the HTTP tutor's tries from the ones a stored trace recorded (model_call events of
 * provider "http"), in order, and sends the rest to the live transport: a resumed run rebuilds the
 * agent's turns from its recorded replies without POSTing them again. A replayed try whose body
 * differs from the recorded one (its digest) is a divergence.
 */
export class ReplayHttp implements HttpTransport {
  readonly #live: HttpTransport;
  readonly #recorded: EventOf<'model_call'>[];
  #replayed = 0;

  constructor(live: HttpTransport, prefix: readonly TraceEvent[]) {
    this.#live = live;
    this.#recorded = prefix.filter((e): e is EventOf<'model_call'> => e.type === 'model_call' && e.role === 'tutor' && e.provider === 'http');
  }

  get counts(): { replayed: number; left: number } {
    return { replayed: this.#replayed, left: this.#recorded.length - this.#replayed };
  }

  post(url: string, body: string, o: { timeoutMs: number; signal?: AbortSignal; tokenEnv?: string }): Promise<HttpReply> {
    const rec = this.#recorded[this.#replayed];
    if (!rec) return this.#live.post(url, body, o);
    this.#replayed++;
    if (rec.request.digest !== undefined && rec.request.digest !== digestOf(body)) {
      return Promise.reject(new SimError('RESUME_DIVERGED', `the resumed run's POST for model call ${rec.seq} (${rec.purpose}) differs from the one the stored trace recorded, so its recorded reply does not apply`));
    }
    if (rec.response === null) return Promise.reject(new AgentError((rec.error?.code ?? 'AGENT_NETWORK') as AgentError['code'], rec.error?.message ?? 'the recorded try failed'));
    const content = rec.response.content ?? '';
    if (content.length > MAX_RECORDED_CONTENT && CUT_MARKER.test(content)) {
      return Promise.reject(new SimError('RESUME_DIVERGED', `the stored trace kept only the first ${MAX_RECORDED_CONTENT} characters of the agent's reply ${rec.seq}, so this run cannot be replayed exactly past it`));
    }
    const m = /^http_(\d{3})$/.exec(rec.response.finishReason ?? '');
    return Promise.resolve({ status: m ? Number(m[1]) : 200, text: content });
  }

  wait(ms: number, signal?: AbortSignal): Promise<void> {
    return this.#replayed < this.#recorded.length ? Promise.resolve() : this.#live.wait(ms, signal);
  }
}
