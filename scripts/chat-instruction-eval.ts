/**
 * Evaluates the chat-instruction rule (src/core/learner/chat-instruction.ts; docs/learning-model.md,
 * "Instruction in chat"): how often it fires on the tutor chat messages of the reference tutors and
 * of the scripted-server LLM tutor, its false-positive rate on ordinary chat, and whether switching
 * it on changes any ranking on learning gain.
 *
 *   npx tsx scripts/chat-instruction-eval.ts [--seeds 1-3] [--rank-seeds 1-10] [--akt-seeds 1-5]
 *
 * 1. Firing: every tutor chat message (send_message) of the reference tutors on the 55 library
 *    scenarios and the default one (BKT, rule off, so the traces are today's) and of the LLM tutor
 *    in its three harnesses on the scripted stand-in model (policyReply) on 11 library scenarios,
 *    matched against the items the learner was working on (message.workingOn). A message is
 *    labelled "instruction" when it holds a step or a hint of one of those items verbatim (after the
 *    checker's normalisation), "ordinary" otherwise; the rule's hits on ordinary messages are its
 *    false positives, its misses on instruction messages its false negatives.
 * 2. Ordinary chat written for this check (ORDINARY below: greetings, encouragement, questions,
 *    organisation, answer checks without the method) against every item of a 110-skill bank.
 * 3. Ranking: the reference tutors (and the scripted LLM tutor) on the default scenario with the
 *    rule off and on: mean learning gain per tutor, the order, and planner-beats-answer-giver seeds.
 */
import { loadScenarioFile, DEFAULT_SCENARIO_PATH } from '../src/adapters/node/files';
import { nodeRunEnv } from '../src/adapters/node/run-env';
import { z } from 'zod';
import { CHAT_MIN_NOVEL, CHAT_MIN_OVERLAP, CHAT_MIN_TOKENS, MockLlm, Rng, TUTORS, buildItemBank, revealsAnswer, type Tutor, type TutorEntry, chatInstructionMatch, executeRun, llmTutorConfig, meanCi95, normalizeText, runRecord, scoreTrace, type Item, type RunEnv, type RunStartEvent, type Scenario, type TraceEvent } from '../src/core/index';
import { policyReply, type WireRequest } from '../src/testing/mock-openai-server';
import { readdirSync } from 'node:fs';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const range = (spec: string) => {
  const [lo, hi] = spec.split('-').map(Number) as [number, number];
  return Array.from({ length: (hi ?? lo) - lo + 1 }, (_, i) => lo + i);
};
const seeds = range(arg('--seeds', '1-3'));
const rankSeeds = range(arg('--rank-seeds', '1-10'));
const aktSeeds = arg('--akt-seeds', '1-5') === '0' ? [] : range(arg('--akt-seeds', '1-5'));
const env = nodeRunEnv();
const REFERENCE = ['answer-giver', 'withholder', 'planner'];
const HARNESSES = ['reactive', 'notes', 'curriculum'];

/** The scripted stand-in model as an in-process client (the scripted server's policy). */
const scriptedLlm = (model: string): MockLlm =>
  new MockLlm((req) => {
    const body: WireRequest = { model, messages: req.messages.map((m) => ({ role: m.role, content: m.content, ...(m.role === 'assistant' && m.toolCalls ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) } : {}) })), ...(req.tools ? { tools: req.tools.map((t) => ({ type: 'function', function: t })) } : {}) };
    const r = policyReply(body);
    if (r.kind !== 'chat') throw new Error('chat only');
    return { content: r.content ?? null, ...(r.toolCalls ? { toolCalls: r.toolCalls } : {}) };
  }, { provider: 'scripted', model });
const llmEnv: RunEnv = { ...env, llm: ({ model }) => scriptedLlm(model) };

/**
 * A tutor written for this check: the withholder's help (the next hint of the item's ladder and a
 * question), given in chat only, with no provide_content post: what an LLM tutor that teaches in
 * chat does. With the rule off, its hints reach the learner only as words.
 */
const chatHinter: TutorEntry = {
  name: 'chat-hinter',
  description: 'the withholder in chat only (this evaluation)',
  needs: [],
  configSchema: z.object({}).strict(),
  parseConfig: () => ({}),
  create(): Tutor {
    const given = new Map<string, number>();
    return {
      async onWake(ctx) {
        const id = ctx.wake.reason === 'help_request' && typeof ctx.wake.payload.item_id === 'string' ? ctx.wake.payload.item_id : null;
        if (!id) {
          ctx.tools.call('stay_silent', { reason: 'nothing asked' });
          return;
        }
        const r = ctx.tools.call('get_course_map', { item_id: id });
        const it = (r.ok ? r.value : null) as { hints: string[]; answer_forms: { numeric: string[]; phrases: string[] } } | null;
        const n = given.get(id) ?? 0;
        given.set(id, n + 1);
        const hint = it ? [...it.hints.slice(Math.min(n, it.hints.length - 1)), ...it.hints].find((h) => !revealsAnswer(h, it.answer_forms)) : undefined;
        ctx.tools.call('send_message', { text: `${hint ?? "Let's work through it together."} What would your first step be?` });
      },
    };
  },
};
const refEnv: RunEnv = { ...env, tutors: new Map([...TUTORS, [chatHinter.name, chatHinter]]) };

const steps = (it: Item) => [...it.steps, ...it.hints].map(normalizeText);
const verbatim = (text: string, it: Item) => {
  const t = normalizeText(text);
  return steps(it).some((s) => s.length > 0 && t.includes(s));
};

interface Tally {
  messages: number;
  fires: number;
  instruction: number;
  tp: number;
  fp: number;
  fn: number;
  examplesFp: string[];
}
const tally = (): Tally => ({ messages: 0, fires: 0, instruction: 0, tp: 0, fp: 0, fn: 0, examplesFp: [] });

/** Every tutor chat message seen, with its working items and label (for the sensitivity table). */
const seenMessages: { text: string; working: Item[]; instruction: boolean }[] = [];

function countMessages(events: readonly TraceEvent[], t: Tally): void {
  const start = events[0] as RunStartEvent;
  const items = new Map(start.itemBank.items.map((i) => [i.id, i]));
  for (const e of events) {
    if (e.type !== 'message' || e.from !== 'tutor' || e.via !== 'send_message') continue;
    const working = (e.workingOn ?? []).map((id) => items.get(id)).filter((x): x is Item => x !== undefined);
    seenMessages.push({ text: e.text, working, instruction: working.some((it) => verbatim(e.text, it)) });
    const fires = working.some((it) => chatInstructionMatch(e.text, it) !== null);
    const instr = working.some((it) => verbatim(e.text, it));
    t.messages++;
    if (fires) t.fires++;
    if (instr) t.instruction++;
    if (fires && instr) t.tp++;
    if (fires && !instr) {
      t.fp++;
      if (t.examplesFp.length < 3) t.examplesFp.push(e.text.slice(0, 160));
    }
    if (!fires && instr) t.fn++;
  }
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
const t0 = performance.now();

// 1. Firing on the reference tutors and the scripted LLM tutor.
const lib = readdirSync('scenarios').filter((f) => f.includes('--') && f.endsWith('.yaml')).sort();
const files = [DEFAULT_SCENARIO_PATH, ...lib.map((f) => `scenarios/${f}`)];
const byTutor = new Map<string, Tally>();
for (const tutor of [...REFERENCE, 'chat-hinter']) {
  const t = tally();
  for (const f of files) for (const seed of seeds) countMessages((await executeRun(runRecord({ scenario: loadScenarioFile(f), source: f, tutor: { name: tutor, config: {} }, tracer: 'bkt', seed }), refEnv)).events, t);
  byTutor.set(tutor, t);
}
const llmFiles = lib.filter((f) => f.endsWith('--after-school.yaml')).map((f) => `scenarios/${f}`);
for (const harness of HARNESSES) {
  const t = tally();
  for (const f of llmFiles) for (const seed of seeds.slice(0, 2)) countMessages((await executeRun(runRecord({ scenario: loadScenarioFile(f), source: f, tutor: { name: 'llm', config: llmTutorConfig({ harness, model: 'scripted-tutor', provider: 'scripted' }) }, tracer: 'bkt', seed }), llmEnv)).events, t);
  byTutor.set(`llm/${harness} (scripted)`, t);
}
console.log(`## 1. Firing on tutor chat (send_message), BKT, ${files.length} scenarios × seeds ${seeds.join(',')} (LLM: ${llmFiles.length} scenarios × seeds ${seeds.slice(0, 2).join(',')})\n`);
console.log('| tutor | chat messages | rule fires | holds a step/hint verbatim | true pos. | false pos. (rate among ordinary) | false neg. |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
let allOrd = 0;
let allFp = 0;
for (const [tutor, t] of byTutor) {
  const ord = t.messages - t.instruction;
  allOrd += ord;
  allFp += t.fp;
  console.log(`| ${tutor} | ${t.messages} | ${t.fires} (${pct(t.fires, t.messages)}) | ${t.instruction} | ${t.tp} | ${t.fp} (${pct(t.fp, ord)}) | ${t.fn} |`);
}
console.log(`\nfalse positives over all ordinary trace messages: ${allFp} of ${allOrd} (${pct(allFp, allOrd)})`);
for (const [tutor, t] of byTutor) for (const x of t.examplesFp) console.log(`  fp example (${tutor}): ${x}`);

// 2. Ordinary chat written for this check, against every item of a 110-skill bank.
const ORDINARY = [
  'Welcome back! What will you work on first?',
  'Good question. What is the problem asking you to find? Try the first step.',
  'Great job today, keep it up!',
  'You have three problems due tonight at 9pm.',
  'Take your time and read the question again.',
  'What have you tried so far?',
  'Can you tell me how you got that answer?',
  'That is not quite right. Check your work and try again.',
  'Nice work, that one is correct.',
  "Let's take a short break and come back to it.",
  "I've assigned you a few practice problems on this skill.",
  'Show me your first step and I will check it.',
  'Which part is confusing you?',
  'Remember to write your answer in the box.',
  'Do you want a hint or a worked example?',
  'You are making progress: your accuracy is up this week.',
  'Look at the worked example I just posted; it uses the same idea.',
  'What would you do first?',
  'Is your answer reasonable? Estimate it first.',
  "Don't worry about mistakes, they help you learn.",
  'Try explaining the problem in your own words.',
  'Write down what you know and what you need to find.',
  'Check whether your answer makes sense in the problem.',
  'How many problems do you have left for today?',
  "Let's look at this one together.",
  'Good morning! Ready for some maths?',
  'You finished all your homework, well done!',
  'I noticed you got stuck on the last one. Want to talk about it?',
  'Can you draw a picture of the problem?',
  'What is the question asking for: a number, an expression or an equation?',
  'Make sure you read every word of the question.',
  'Try the next problem and let me know how it goes.',
  'The deadline for this assignment is tomorrow.',
  'Your answer has the right idea, but look at the sign.',
  'Which operation do you think you need here?',
  'Keep going, you are almost there.',
  'I will post some practice on fractions later today.',
  'Read the question aloud and tell me what it asks.',
  'Think about a similar problem you solved yesterday.',
  'Before you submit, check your arithmetic once more.',
  // Maths-flavoured chat that names no step or hint of any item.
  'Is your answer positive or negative?',
  'What does the graph show you?',
  'Read the table carefully before you start.',
  'Which fraction is bigger, do you think?',
  'Remember your times tables.',
  'Check the units in your answer.',
  'What is the first number in the list?',
  'Did you simplify your answer?',
  'Write the equation you are solving.',
  'How did you round your answer?',
  'Is that a whole number or a decimal?',
  'Look at the sign of each number.',
  'What do the variables stand for?',
  'Count the sides of the shape again.',
  'Use the formula you learned in class.',
  'What is the value of x you found?',
  'Try a smaller number first.',
  'Which step was hardest for you?',
  'Can you check it by plugging your answer back in?',
  'Percent problems can be tricky, take it slowly.',
];
const big = buildItemBank({ skills: Array.from({ length: 110 }, (_, i) => i + 1), itemsPerLevel: 4, probesPerSkill: 0 }, new Rng(7));
let pairs = 0;
let hits = 0;
const linesHit = new Map<string, number>();
for (const line of ORDINARY)
  for (const it of big.items) {
    pairs++;
    if (chatInstructionMatch(line, it)) {
      hits++;
      linesHit.set(line, (linesHit.get(line) ?? 0) + 1);
    }
  }
console.log(`\n## 2. Ordinary chat written for this check: ${ORDINARY.length} lines × ${big.items.length} items (110 skills × 3 levels × 4)\n`);
console.log(`rule fires on ${hits} of ${pairs} (line, item) pairs (${pct(hits, pairs)}); lines that fire on any item: ${linesHit.size} of ${ORDINARY.length}`);
for (const [line, n] of linesHit) console.log(`  "${line}" fires on ${n} items`);

// A message built from one item's step or hint firing on a working item of another skill.
let cross = 0;
let crossOf = 0;
for (const m of seenMessages.filter((x) => x.instruction)) {
  const source = new Set(m.working.filter((it) => verbatim(m.text, it)).map((it) => it.skillId));
  const others = m.working.filter((it) => !source.has(it.skillId));
  if (others.length === 0) continue;
  crossOf++;
  if (others.some((it) => chatInstructionMatch(m.text, it) !== null)) cross++;
}
console.log(`\ninstruction messages with working items of another skill: ${crossOf}; the rule fires on one of those other skills in ${cross} (${pct(cross, crossOf)})`);

// Restating the problem is not instruction: every item's stem, restated, against the item itself.
const restated = big.items.filter((it) => chatInstructionMatch(`Let's read the problem again: ${it.stem}`, it) !== null);
console.log(`\nstem restatements ("Let's read the problem again: <stem>") against their own item: fires on ${restated.length} of ${big.items.length} (${pct(restated.length, big.items.length)})`);
for (const it of restated.slice(0, 3)) console.log(`  e.g. skill ${it.skillId}: ${it.stem.slice(0, 100)}`);

// Sensitivity: other thresholds on the same messages.
console.log(`\n### Sensitivity (the rule: min tokens ${CHAT_MIN_TOKENS}, min novel ${CHAT_MIN_NOVEL}, overlap ${CHAT_MIN_OVERLAP})\n`);
console.log('| min tokens | min novel | min overlap | recall on verbatim step/hint messages | false pos. on ordinary trace messages | ordinary lines × items | stem restatements |');
console.log('|---:|---:|---:|---:|---:|---:|---:|');
const instrMsgs = seenMessages.filter((m) => m.instruction);
const ordMsgs = seenMessages.filter((m) => !m.instruction);
for (const minNovel of [null, 2])
for (const minTokens of [3, 4, 5])
  for (const minOverlap of [0.6, 0.8, 1]) {
    const o = { minTokens, minOverlap, minNovel };
    const fire = (m: { text: string; working: Item[] }) => m.working.some((it) => chatInstructionMatch(m.text, it, o) !== null);
    const rec = instrMsgs.filter(fire).length;
    const fpTrace = ordMsgs.filter(fire).length;
    let fpLines = 0;
    for (const line of ORDINARY) for (const it of big.items) if (chatInstructionMatch(line, it, o)) fpLines++;
    const fpStem = big.items.filter((it) => chatInstructionMatch(`Let's read the problem again: ${it.stem}`, it, o) !== null).length;
    console.log(`| ${minTokens} | ${minNovel ?? 'none'} | ${minOverlap} | ${pct(rec, instrMsgs.length)} | ${pct(fpTrace, ordMsgs.length)} | ${pct(fpLines, ORDINARY.length * big.items.length)} | ${pct(fpStem, big.items.length)} |`);
  }

// 3. Rankings with the rule off and on.
async function gains(tracer: string, seedList: number[], on: boolean): Promise<Map<string, number[]>> {
  const scenario: Scenario = loadScenarioFile(DEFAULT_SCENARIO_PATH);
  const out = new Map<string, number[]>();
  const tutors: { label: string; name: string; config: Record<string, unknown> }[] = [
    ...[...REFERENCE, 'chat-hinter'].map((n) => ({ label: n, name: n, config: {} })),
    { label: 'llm/reactive (scripted)', name: 'llm', config: llmTutorConfig({ harness: 'reactive', model: 'scripted-tutor', provider: 'scripted' }) },
  ];
  for (const t of tutors) {
    const xs: number[] = [];
    for (const seed of seedList) {
      const res = await executeRun(runRecord({ scenario, source: DEFAULT_SCENARIO_PATH, tutor: { name: t.name, config: t.config }, tracer, seed, ...(on ? { chatInstruction: true } : {}) }), t.name === 'llm' ? llmEnv : refEnv);
      xs.push(scoreTrace(res.events).learningGain ?? NaN);
    }
    out.set(t.label, xs);
  }
  return out;
}
const fmt = (xs: number[]) => {
  const c = meanCi95(xs);
  const f = (x: number) => (x * 100).toFixed(3);
  return c.lo === null ? f(c.mean) : `${f(c.mean)} [${f(c.lo)}, ${f(c.hi!)}]`;
};
for (const [tracer, list] of [['bkt', rankSeeds], ['akt', aktSeeds]] as const) {
  if (list.length === 0) continue;
  const off = await gains(tracer, list, false);
  const on = await gains(tracer, list, true);
  console.log(`\n## 3. Learning gain (pp/day) on the default scenario, ${tracer.toUpperCase()}, seeds ${list[0]}–${list[list.length - 1]}: rule off vs on\n`);
  console.log('| tutor | off | on | runs whose gain changed |');
  console.log('|---|---|---|---:|');
  for (const [label, xs] of off) {
    const ys = on.get(label)!;
    console.log(`| ${label} | ${fmt(xs)} | ${fmt(ys)} | ${xs.filter((x, i) => x !== ys[i]).length}/${xs.length} |`);
  }
  const order = (m: Map<string, number[]>) => [...m].map(([k, v]) => [k, v.reduce((a, b) => a + b, 0) / v.length] as const).sort((a, b) => b[1] - a[1]).map(([k]) => k).join(' > ');
  const beats = (m: Map<string, number[]>, a: string, b: string) => m.get(a)!.filter((x, i) => x > m.get(b)![i]!).length;
  console.log(`\norder off: ${order(off)}\norder on:  ${order(on)}`);
  for (const [a, b] of [['planner', 'answer-giver'], ['chat-hinter', 'answer-giver'], ['withholder', 'chat-hinter']] as const) console.log(`${a} beats ${b}: off ${beats(off, a, b)}/${list.length}, on ${beats(on, a, b)}/${list.length} seeds`);
}
console.log(`\n(${((performance.now() - t0) / 1000).toFixed(0)} s)`);
