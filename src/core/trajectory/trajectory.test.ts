/**
 * Trajectory export (docs/bring-your-own-tutor.md#trajectories): a judged LLM-tutor run (with the
 * LLM student voice, whose prompts hold the persona and the learner model's belief) exported per
 * turn and per run, written as JSONL, read back and validated against the documented format; the
 * messages are exactly the conversation the tutor's model had; the signals agree with the score
 * report; and nothing the tutor could not see (persona, mastery, P(correct), probes, the student
 * model's prompts) is in any message.
 */
import { describe, expect, it } from 'vitest';
import { miniScenario, runWith } from '../../testing/fixtures';
import {
  MockLlm,
  PANEL_DEFAULTS,
  TRAJECTORY_FORMAT,
  splitOf,
  oneCallPerMessage,
  TrajectoryLineSchema,
  REWARD_WEIGHTS,
  runTotal,
  withAdvantages,
  judgeTrace,
  llmTutorConfig,
  scoreTrace,
  trajectories,
  withVerdicts,
  type ChatRequest,
  type MockReply,
  type RunLine,
  type PromptCompletionLine,
  type TraceEvent,
  type TrajectoryMessage,
  type TurnLine,
} from '../index';
import { TUTOR_SYSTEM } from '../tutors/llm/prompts';
import { resultText } from '../tutors/llm/loop';

const of = <K extends TraceEvent['type']>(ev: readonly TraceEvent[], type: K) => ev.filter((e): e is Extract<TraceEvent, { type: K }> => e.type === type);

/** The tutor's model: reads, hints, silence at night; one call with arguments that are not JSON, and one unknown tool. */
function tutorPolicy(req: ChatRequest): MockReply {
  const last = req.messages[req.messages.length - 1]!;
  if (last.role === 'user') {
    if (last.content.includes('asks for help')) return { content: 'Let me look first.', toolCalls: [{ name: 'get_assignments', arguments: { status: 'open' } }, { name: 'get_gradebook', arguments: { last_n: 2 } }] };
    if (last.content.includes('day is ending')) return { toolCalls: [{ name: 'stay_silent', arguments: { reason: 'night' } }] };
    if (last.content.includes('logged in')) return { toolCalls: [{ name: 'get_learner_profile', arguments: '{not json' }, { name: 'teleport', arguments: {} }] };
    return { content: 'Nothing to do.' };
  }
  const tools = req.messages.filter((m) => m.role === 'tool').length;
  if (tools <= 2 && req.messages.some((m) => m.role === 'user' && m.content.includes('asks for help'))) return { toolCalls: [{ name: 'send_message', arguments: { text: 'What is the first step? Write the equation down.' } }] };
  return { content: 'Done for now.' };
}

/** The student's model: its prompts carry the persona and P(correct); none of it may reach a trajectory. */
const studentPolicy = (): MockReply => ({ content: JSON.stringify({ message: 'I will try it again myself.', answer: null }) });

/** Judges: one scores every item 4 and holds; one scores every item 2 and holds. */
const judge = (score: number) => (req: ChatRequest): MockReply => {
  const sys = req.messages[0]!.content ?? '';
  if (sys.includes('"held"')) return { content: JSON.stringify({ held: true, evidence: '' }) };
  return { content: JSON.stringify(Object.fromEntries([...sys.matchAll(/"(\w+)": <integer (\d+)-(\d+)>/g)].map((m) => [m[1]!, score]))) };
};

async function judgedRun() {
  const tutor = new MockLlm(tutorPolicy, { model: 'tutor-m', provider: 'mock' });
  const student = new MockLlm(studentPolicy, { model: 'student-m', provider: 'mock' });
  const res = await runWith(miniScenario(), 'llm', {
    seed: 4,
    tutorConfig: llmTutorConfig({ harness: 'reactive', model: 'tutor-m', provider: 'mock' }),
    voice: { kind: 'llm', provider: 'mock', model: 'student-m' },
    env: { llm: (ref) => (ref.role === 'tutor' ? tutor : student) },
  });
  expect(res.reason).toBe('horizon_reached');
  const judges = [
    { id: 'a', client: new MockLlm(judge(4), { model: 'ja', family: 'fa' }) },
    { id: 'b', client: new MockLlm(judge(2), { model: 'jb', family: 'fb' }) },
  ];
  const panel = await judgeTrace(res.events, { ...PANEL_DEFAULTS, id: 'p2', judges, daysPerRun: null });
  return { events: withVerdicts(res.events, panel.events), tutor, student };
}

/** What the tutor's model was sent, in the trajectory's (OpenAI) message format. */
const asOpenAi = (m: ChatRequest['messages'][number]): TrajectoryMessage =>
  m.role === 'tool'
    ? { role: 'tool', tool_call_id: m.toolCallId, content: m.content }
    : m.role === 'assistant'
      ? { role: 'assistant', content: m.content, ...(m.toolCalls?.length ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) } : {}) }
      : { role: m.role, content: m.content };

describe('trajectory export', () => {
  it('a judged LLM run: per turn and per run, read back from JSONL and valid; the messages are the conversation the model had; the signals agree with the score report; no hidden state', async () => {
    const { events, tutor, student } = await judgedRun();
    const report = scoreTrace(events);
    expect(report.judged.gagne).not.toBeNull();

    const perTurn = trajectories(events).map((l) => JSON.stringify(l)).join('\n') + '\n';
    const perRun = trajectories(events, { per: 'run' }).map((l) => JSON.stringify(l)).join('\n') + '\n';
    const read = (text: string) => text.trimEnd().split('\n').map((l) => TrajectoryLineSchema.parse(JSON.parse(l)));
    const turns = read(perTurn) as TurnLine[];
    const [run] = read(perRun) as RunLine[];
    const wakes = of(events, 'wake');
    expect(turns.map((t) => t.turn)).toEqual(wakes.map((w) => w.turn));
    expect(read(perRun)).toHaveLength(1);

    for (const t of turns) {
      expect(t).toMatchObject({ format: TRAJECTORY_FORMAT, kind: 'turn', run_id: events[0]!.type === 'run_start' ? events[0]!.runId : '', source: 'model_calls', tutor: { name: 'llm', harness: 'reactive', model: 'tutor-m', label: 'llm/reactive/tutor-m' } });
      expect(t.messages[0]).toEqual({ role: 'system', content: TUTOR_SYSTEM(3) });
      expect(t.tools.map((x) => x.function.name)).toEqual(['get_learner_profile', 'get_course_map', 'get_gradebook', 'get_assignments', 'get_messages', 'assign_items', 'adjust_level', 'provide_content', 'send_message', 'stay_silent']);
      // Every tool call of an assistant message has its tool message, right after it, in order.
      t.messages.forEach((m, i) => {
        if (m.role !== 'assistant' || !m.tool_calls) return;
        expect(t.messages.slice(i + 1, i + 1 + m.tool_calls.length).map((x) => (x.role === 'tool' ? x.tool_call_id : null))).toEqual(m.tool_calls.map((c) => c.id));
      });
      // The turn ends with the tutor's last message: a reply, or a tool result; never a made-up empty reply after one.
      const lastMsg = t.messages[t.messages.length - 1]!;
      expect(['assistant', 'tool']).toContain(lastMsg.role);
      if (lastMsg.role === 'assistant' && lastMsg.content === '') expect(t.messages).toHaveLength(3);
    }

    // The reactive harness sends each wake as a fresh conversation: a turn's trajectory is its last
    // request to the model plus the model's last reply (and, after stay_silent, its result).
    const tutorCalls = of(events, 'model_call').filter((c) => c.role === 'tutor');
    expect(tutorCalls).toHaveLength(tutor.requests.length);
    for (const t of turns) {
      const idx = tutorCalls.map((c, i) => (c.turn === t.turn ? i : -1)).filter((i) => i >= 0);
      if (!idx.length) continue;
      const lastIdx = idx[idx.length - 1]!;
      const sent = tutor.requests[lastIdx]!.messages.map(asOpenAi);
      const reply = tutorCalls[lastIdx]!.response!;
      const replied: TrajectoryMessage = { role: 'assistant', content: reply.content, ...(reply.toolCalls.length ? { tool_calls: reply.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) } : {}) };
      const expected = [...sent, replied];
      const got = t.messages;
      const toolResults = got.filter((m) => m.role === 'tool');
      // After a final reply with tool calls (stay_silent), its results follow and end the turn (the model was not asked again).
      if (replied.role === 'assistant' && replied.tool_calls) expect(got).toEqual([...expected, ...toolResults.slice(-replied.tool_calls.length)]);
      else expect(got).toEqual(expected);
    }
    // The malformed call and the unknown tool are in the trajectory as the model wrote them, with the errors it got back.
    const login = turns.find((t) => t.signals.turn.reason === 'login')!;
    const asked = login.messages.find((m) => m.role === 'assistant' && m.tool_calls);
    expect(asked && asked.role === 'assistant' && asked.tool_calls!.map((c) => [c.function.name, c.function.arguments])).toEqual([['get_learner_profile', '{not json'], ['teleport', '{}']]);
    expect(login.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content).error.code)).toEqual(['INVALID_ARGS', 'UNKNOWN_TOOL']);
    expect(login.signals.turn.tool_errors).toBe(2);
    // The argument text that is not JSON is counted, so that a user can filter such turns.
    expect(login.signals.turn.malformed_args).toBe(1);
    const notJson = of(events, 'tool_call').filter((c) => c.args === '{not json');
    expect(notJson.length).toBeGreaterThan(0);
    for (const t of turns) expect(t.signals.turn.malformed_args).toBe(notJson.filter((c) => c.turn === t.turn).length);

    // Tool messages are the results the tutor was given, as the LLM loop shows them.
    const results = of(events, 'tool_call').map((c) => resultText(c.result));
    expect(turns.flatMap((t) => t.messages.filter((m) => m.role === 'tool').map((m) => m.content))).toEqual(results);

    // Signals: per turn, per day and per run agree with the score report.
    expect(run!.signals.run.axes.learningGain).toBe(report.learningGain);
    expect(run!.signals.run.axes.gagne).toBe(report.judged.gagne);
    expect(run!.signals.run).toMatchObject({ complete: true, end_reason: 'horizon_reached', horizon_days: 3, panel: 'p2' });
    const days = run!.signals.days;
    expect(days.map((d) => d.day)).toEqual([1, 2, 3]);
    const probes = new Map(of(events, 'probe').map((p) => [p.day, p.solveRate]));
    for (const d of days) {
      expect(d.solve_rate_start).toBe(probes.get(d.day - 1));
      expect(d.solve_rate_end).toBe(probes.get(d.day));
      expect(d.gain).toBeCloseTo(probes.get(d.day)! - probes.get(d.day - 1)!, 12);
    }
    expect(days.reduce((a, d) => a + d.gain!, 0) / days.length).toBeCloseTo(report.learningGain!, 12);
    // Judged days: the panel mean of the two judges (4 and 2); Gagné and Rosenshine from day 2.
    expect(days.map((d) => d.judged.gagne)).toEqual([null, 3, 3]);
    expect(days.map((d) => d.judged.helpfulness)).toEqual([3, 3, 3]);
    expect(days.map((d) => d.judged.answerHolding)).toEqual([1, 1, 1]);
    const help = turns.filter((t) => t.signals.turn.help_request);
    expect(help.length).toBeGreaterThan(0);
    // help_answered is the responsiveness rule: the stand-in's "What is the problem asking you to find?" engages nothing of a request.
    expect(help.every((t) => typeof t.signals.turn.help_answered === 'boolean')).toBe(true);
    expect(help.filter((t) => t.signals.turn.help_answered).length).toBe((report.details.responsiveness as { answered: number }).answered);
    expect(turns.filter((t) => t.signals.turn.reason === 'end_of_day').every((t) => t.signals.turn.silent && t.signals.turn.actions === 1)).toBe(true);
    const leak = report.details.leakage as { tutorTurns: number; leakingTurns: number };
    expect(days.reduce((a, d) => a + d.tutor_turns, 0)).toBe(leak.tutorTurns);
    // The run line holds the same turns, each at its message index.
    for (const ts of run!.signals.turns) {
      const t = turns.find((x) => x.turn === ts.turn)!;
      expect(run!.messages.slice(ts.message_index, ts.message_index + t.messages.length - 1)).toEqual(t.messages.slice(1));
    }

    // No hidden state: nothing in any message the tutor could not see.
    const start = events[0]!;
    if (start.type !== 'run_start') throw new Error('no run_start');
    const text = [...turns, run!].flatMap((l) => l.messages.map((m) => JSON.stringify(m))).join('\n');
    const persona = start.scenario.learner.persona;
    const hidden = [
      persona.name, // "help-seeker"
      'mastery',
      'P(correct)',
      'solveRate',
      'probe',
      'disclosed',
      'copyDisclosed',
      'seedUid',
      ...('seedUid' in start.learner ? [String(start.learner.seedUid)] : []),
      // The probe items are held out: the tutor never sees them.
      ...of(events, 'probe').flatMap((p) => p.items.map((i) => `"${i.itemId}"`)),
      // The learner model's probabilities (attempts' p, mastery values; 4+ significant decimals).
      ...of(events, 'attempt').map((a) => String(a.p)).filter((s) => s.length >= 6),
      ...of(events, 'mastery').flatMap((m) => m.values.map(String)).filter((s) => s.length >= 6),
      // What the student's model was told (its system prompts carry the persona and P(correct)).
      ...student.requests.map((r) => r.messages[0]!.content!.slice(0, 80)),
    ];
    expect(student.requests.length).toBeGreaterThan(0);
    expect(hidden.length).toBeGreaterThan(30);
    for (const h of hidden) expect(text.includes(h), `the trajectory holds hidden state: ${h}`).toBe(false);
    // The learner's own messages do reach the tutor (as the wake text and get_messages show them).
    expect(text).toContain('I will try it again myself.');
  });

  it('a built-in tutor: one assistant message per tool call (source tool_calls); a cut-short run exports what it has', async () => {
    const res = await runWith(miniScenario(), 'planner', { seed: 2 });
    const lines = trajectories(res.events).map((l) => TrajectoryLineSchema.parse(JSON.parse(JSON.stringify(l))) as TurnLine);
    expect(lines.every((l) => l.source === 'tool_calls' && l.tutor.harness === '' && l.tutor.model === '' && l.tutor.label === 'planner')).toBe(true);
    const calls = of(res.events, 'tool_call');
    const assistant = lines.flatMap((l) => l.messages.filter((m) => m.role === 'assistant' && m.tool_calls));
    expect(assistant.map((m) => (m.role === 'assistant' ? m.tool_calls!.map((c) => c.function.name) : []))).toEqual(calls.map((c) => [c.tool]));
    // Cut after the second day's start: incomplete, days up to the one reached, the last turn's signals as far as they go.
    const cutAt = res.events.findIndex((e) => e.type === 'lms_event' && e.kind === 'day_start' && e.day === 2);
    const cut = res.events.slice(0, cutAt + 1);
    const [r] = trajectories(cut, { per: 'run' }).map((l) => TrajectoryLineSchema.parse(JSON.parse(JSON.stringify(l))) as RunLine);
    expect(r!.signals.run).toMatchObject({ complete: false, end_reason: null });
    expect(r!.signals.days.map((d) => d.day)).toEqual([1, 2]);
    expect(r!.signals.days[1]!.solve_rate_end).toBeNull();
  });

  it('lines of different tutors have one shape (v2, issue 35): model and harness are strings, the config is JSON text, so files load and concatenate as one table', async () => {
    const planner = trajectories((await runWith(miniScenario(), 'planner', { seed: 2 })).events);
    const silent = trajectories((await runWith(miniScenario(), 'silent', { seed: 2 })).events);
    // The shape of a line as a columnar reader infers it: each field's type (null is its own type in Arrow).
    const shape = (x: unknown): unknown => (x === null ? 'null' : Array.isArray(x) ? 'list' : typeof x === 'object' ? Object.fromEntries(Object.entries(x as object).filter(([k]) => k !== 'messages' && k !== 'tools' && k !== 'signals').map(([k, v]) => [k, shape(v)])) : typeof x);
    expect(shape(planner[0])).toEqual(shape(silent[0]));
    expect(shape(planner[0])).toMatchObject({ tutor: { name: 'string', config_json: 'string', label: 'string', harness: 'string', model: 'string' } });
    expect(JSON.parse(planner[0]!.tutor.config_json)).toEqual({});
  });

  it('sample_id tells apart runs that share a run id; group and split keep one simulated student on one side', async () => {
    const a = trajectories((await runWith(miniScenario(), 'planner', { seed: 2 })).events);
    const b = trajectories((await runWith(miniScenario(), 'planner', { seed: 2, chatInstruction: true })).events);
    expect(a[0]!.run_id).toBe(b[0]!.run_id);
    expect(a[0]!.sample_id).not.toBe(b[0]!.sample_id);
    expect(new Set(a.map((l) => l.sample_id)).size).toBe(1);
    expect(a[0]!.sample_id).toMatch(/^mini-3day__planner__s2@[0-9a-f]{8}$/);
    const s = trajectories((await runWith(miniScenario(), 'silent', { seed: 2 })).events);
    expect([...new Set([...a, ...s].map((l) => `${l.group}:${l.split}`))]).toEqual([`mini-3day__s2:${splitOf('mini-3day__s2')}`]);
    const splits = Array.from({ length: 400 }, (_, i) => splitOf(`scenario__s${i}`));
    expect(splits.filter((x) => x === 'train').length / 400).toBeGreaterThan(0.7);
    expect(new Set(splits)).toEqual(new Set(['train', 'validation', 'test']));
  });

  it('--one-call-per-message: a reply with several calls becomes one assistant message per call, each followed by its result (Llama 3.1 templates)', () => {
    const msgs: TrajectoryMessage[] = [
      { role: 'user', content: 'wake' },
      { role: 'assistant', content: 'Two things.', tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_gradebook', arguments: '{}' } }, { id: 'b', type: 'function', function: { name: 'send_message', arguments: '{"text":"hi"}' } }] },
      { role: 'tool', tool_call_id: 'a', content: 'A' },
      { role: 'tool', tool_call_id: 'b', content: 'B' },
      { role: 'assistant', content: 'done' },
    ];
    expect(oneCallPerMessage(msgs)).toEqual([
      { role: 'user', content: 'wake' },
      { role: 'assistant', content: 'Two things.', tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_gradebook', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'a', content: 'A' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'b', type: 'function', function: { name: 'send_message', arguments: '{"text":"hi"}' } }] },
      { role: 'tool', tool_call_id: 'b', content: 'B' },
      { role: 'assistant', content: 'done' },
    ]);
  });

  it('rewards (v3, issue 35): per turn from the signals and REWARD_WEIGHTS, the return to the run end, the run total on the run line', async () => {
    const { events } = await judgedRun();
    const turns = trajectories(events) as TurnLine[];
    const [run] = trajectories(events, { per: 'run' }) as RunLine[];
    const days = run!.signals.days;
    for (const [i, t] of turns.entries()) {
      const sameDay = turns.filter((x) => x.day === t.day).length;
      const p = t.reward_parts;
      expect(p.gain).toBeCloseTo((days[t.day - 1]!.gain ?? 0) / sameDay, 12);
      expect(p).toMatchObject({ leak: t.signals.turn.leaked ? 1 : 0, unanswered_help: t.signals.turn.help_answered === false ? 1 : 0, tool_errors: t.signals.turn.tool_errors });
      expect(t.reward).toBeCloseTo(REWARD_WEIGHTS.gain * p.gain + REWARD_WEIGHTS.leak * p.leak + REWARD_WEIGHTS.unanswered_help * p.unanswered_help + REWARD_WEIGHTS.tool_error * p.tool_errors, 12);
      expect(t.return).toBeCloseTo(turns.slice(i).reduce((a, x) => a + x.reward, 0), 12);
      expect([t.advantage, t.group_size]).toEqual([0, 1]);
    }
    // The login turn's two tool errors cost it; the run's rewards add up to its summed daily gain minus the penalties.
    expect(turns.find((t) => t.signals.turn.reason === 'login')!.reward_parts.tool_errors).toBe(2);
    expect(run!.reward).toBeCloseTo(turns.reduce((a, t) => a + t.reward, 0), 12);
    expect(run!.return).toBe(run!.reward);
    expect(run!.reward_parts.gain).toBeCloseTo(days.reduce((a, d) => a + (d.gain ?? 0), 0), 12);
    expect(runTotal(turns)).toBeCloseTo(run!.reward, 12);
  });

  it('advantages (GRPO style): the run total against the other runs of the same simulated student; label for KTO; prompt/completion form', async () => {
    const planner = trajectories((await runWith(miniScenario(), 'planner', { seed: 2 })).events);
    const silent = trajectories((await runWith(miniScenario(), 'silent', { seed: 2 })).events);
    const other = trajectories((await runWith(miniScenario(), 'planner', { seed: 3 })).events);
    const totals = new Map([planner, silent, other].map((ls) => [ls[0]!.sample_id, { group: ls[0]!.group, total: runTotal(ls) }]));
    const [tp, ts] = [runTotal(planner), runTotal(silent)];
    expect(tp).not.toBe(ts);
    const a = withAdvantages([...planner, ...silent, ...other], totals);
    // Two runs in the group: ±1 standard deviation from their mean; a run alone in its group: 0.
    for (const l of a.filter((x) => x.sample_id === planner[0]!.sample_id)) expect(l.advantage).toBeCloseTo(tp > ts ? 1 : -1, 12);
    for (const l of a.filter((x) => x.sample_id === silent[0]!.sample_id)) expect(l.advantage).toBeCloseTo(tp > ts ? -1 : 1, 12);
    expect(a.filter((l) => l.group === 'mini-3day__s2').every((l) => l.group_size === 2)).toBe(true);
    expect(a.filter((l) => l.group === 'mini-3day__s3').every((l) => l.advantage === 0 && l.group_size === 1)).toBe(true);
    expect(() => withAdvantages(planner, new Map())).toThrow(/not among the totals/);

    // Prompt/completion (TRL GRPO, KTO): the prompt is the system and the wake, the completion the tutor's messages of the turn.
    const events = (await runWith(miniScenario(), 'planner', { seed: 2 })).events;
    const pc = trajectories(events, { form: 'prompt_completion' }).map((l) => TrajectoryLineSchema.parse(JSON.parse(JSON.stringify(l))) as PromptCompletionLine);
    const plain = trajectories(events) as TurnLine[];
    expect(pc).toHaveLength(plain.length);
    pc.forEach((l, i) => {
      expect(l.kind).toBe('turn_pc');
      expect(l.prompt).toEqual(plain[i]!.messages.slice(0, 2));
      expect(l.completion).toEqual(plain[i]!.messages.slice(2));
      expect(l.completion[0]!.role).toBe('assistant');
      expect(l.label).toBe(l.return > 0);
    });
    const pcs = withAdvantages([...pc, ...trajectories((await runWith(miniScenario(), 'silent', { seed: 2 })).events, { form: 'prompt_completion' })], totals) as PromptCompletionLine[];
    expect(pcs.every((l) => l.label === l.advantage > 0)).toBe(true);
    expect(() => trajectories(events, { per: 'run', form: 'prompt_completion' })).toThrow(/one line per turn/);
    // A turn in which the tutor did nothing is one empty assistant message; no line ends with an empty reply after a tool result.
    const quiet = trajectories((await runWith(miniScenario(), 'silent', { seed: 2 })).events) as TurnLine[];
    for (const l of [...plain, ...quiet]) {
      const m = l.messages;
      const last = m[m.length - 1]!;
      if (last.role === 'assistant' && last.content === '' && !last.tool_calls) expect(m).toHaveLength(3);
    }
  });
});
