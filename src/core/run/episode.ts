/**
 * runEpisode: one tutor, one simulated learner, one scenario, `horizonDays` virtual days.
 * The loop pops LMS events from a deterministic queue (time, then priority, then insertion
 * order), lets the learner act, and wakes the tutor on the events the scenario lists.
 * Everything observable goes into the trace. No wall clock, no Math.random: the same inputs
 * give the same trace. See src/core/run/README.md for the event flow.
 */
import { EventQueue, MINUTES_PER_DAY, WEEKDAYS, at, dayOf, parseHhmm, simMinutes, weekdayOf, type SimMinutes } from '../clock';
import { Rng } from '../rng';
import { buildItemBank, type ItemBank } from '../course/item-bank';
import type { Item, Level } from '../course/types';
import { LmsState, type ContentKind } from '../lms/state';
import { actionKindOf, runTool, type ToolContext } from '../lms/tools';
import type { Scenario, WakeEventKind } from '../scenario/schema';
import { Learner } from '../learner/learner';
import { HELP_TEMPLATES, TemplateVoice, type StudentVoice } from '../learner/voice';
import { INJECTION_TEMPLATES } from '../learner/extraction';
import { FRUSTRATED_AT, clamp01, isEncouraging } from '../learner/affect';
import { chooseSeed, type PersonaSeedFile } from '../learner/seeds';
import { masteryQueries, type KnowledgeTracer } from '../learner/kt/types';
import type { Tutor, ToolBox, Wake } from '../tutors/types';
import { TRACE_SCHEMA_VERSION, type TerminationReason, type TraceEvent, type TutorSpec } from '../trace/types';
import { TraceRecorder, roundP } from '../trace/recorder';
import { SimError, errorMessage } from '../errors';

export const ENGINE_VERSION = 'educlaw-lab-engine-1';

export interface EpisodeOptions {
  scenario: Scenario;
  tutor: Tutor;
  tutorSpec: TutorSpec;
  tracer: KnowledgeTracer;
  seeds: PersonaSeedFile;
  voice?: StudentVoice;
  /** Overrides scenario.seed (the trace records the seed actually used). */
  seed?: number;
  onEvent?: (e: TraceEvent) => void;
  signal?: AbortSignal;
}

export interface EpisodeResult {
  runId: string;
  events: TraceEvent[];
  reason: TerminationReason;
}

type SimEvent =
  | { k: 'probe'; day: number }
  | { k: 'day_start'; day: number }
  | { k: 'due_soon'; assignmentId: string }
  | { k: 'due'; assignmentId: string }
  | { k: 'login'; blockEnd: number }
  | { k: 'step' }
  | { k: 'submit'; itemId: string; assignmentId: string | null; guess: boolean }
  | { k: 'logout'; why: 'block_end' | 'gave_up' | 'no_work' | 'session_done' }
  | { k: 'end_of_day'; day: number };

const PRIORITY: Record<SimEvent['k'], number> = { probe: 6, day_start: 0, due_soon: 1, due: 1, login: 2, submit: 3, step: 4, logout: 5, end_of_day: 7 };

/** Thrown inside the loop to end the run with a reason. */
class Stop extends Error {
  constructor(readonly reason: TerminationReason, message: string) {
    super(message);
  }
}

export function runIdFor(scenarioId: string, tutor: string, seed: number): string {
  return `${scenarioId}__${tutor}__s${seed}`;
}

export async function runEpisode(opts: EpisodeOptions): Promise<EpisodeResult> {
  const scenario: Scenario = opts.seed === undefined ? opts.scenario : { ...opts.scenario, seed: opts.seed };
  const seed = scenario.seed;
  const root = new Rng(seed);
  const rngBehaviour = root.fork('learner:behaviour');
  const rngVoice = root.fork('learner:voice');
  const rngTutor = root.fork('tutor');
  // Streams for the persona behaviours added with the scenario library. Each draws only when its
  // behaviour is switched on, so a persona without them runs exactly as before.
  const rngSchedule = root.fork('schedule');
  const rngSession = root.fork('learner:session');
  const rngHabits = root.fork('learner:habits');
  const rngHelp = root.fork('learner:help');
  const rngContent = root.fork('learner:content');
  const rngExtraction = root.fork('learner:extraction');
  const voice = opts.voice ?? new TemplateVoice();
  const persona = scenario.learner.persona;
  const rec = new TraceRecorder();
  if (opts.onEvent) rec.subscribe(opts.onEvent);
  const runId = runIdFor(scenario.id, opts.tutorSpec.name, seed);
  const q = new EventQueue<SimEvent>();
  const course = scenario.course;
  const bank: ItemBank = buildItemBank({ skills: course.skills, itemsPerLevel: course.itemsPerLevel, probesPerSkill: course.probesPerSkill }, root.fork('bank'));
  const lms = new LmsState(bank, course.skills, course.startLevel as Level);
  if (scenario.learner.tracer !== opts.tracer.info.name) {
    // Never a silent substitute: the tracer that runs must be the one the scenario names.
    throw new SimError('UNKNOWN_TRACER', `scenario ${scenario.id} asks for tracer "${scenario.learner.tracer}" but "${opts.tracer.info.name}" was given`);
  }
  const seedPick = chooseSeed(opts.seeds, scenario.learner.tracer, scenario.learner.ability, root.fork('persona-seed').int(0, 1_000_000));
  const learner = new Learner(persona, opts.tracer, seedPick.history, root.fork('learner:attempts'));
  const now = (): number => q.now;
  const emit = (e: Parameters<TraceRecorder['emit']>[0]) => rec.emit(e);
  const itemOf = (id: string): Item => {
    const it = bank.get(id);
    if (!it) throw new Stop('internal_error', `unknown item ${id}`);
    return it;
  };

  emit({
    type: 'run_start',
    t: 0,
    schemaVersion: TRACE_SCHEMA_VERSION,
    runId,
    engine: ENGINE_VERSION,
    scenario,
    tutor: opts.tutorSpec,
    tracer: opts.tracer.info,
    learner: { seedIndex: seedPick.index, seedUid: seedPick.uid, warmup: seedPick.history.length },
    itemBank: { hash: bank.hash, items: [...bank.items], probes: [...bank.probes] },
    helpTemplates: { ...HELP_TEMPLATES },
    ...(voice.name !== 'templates' ? { voice: voice.name } : {}),
  });

  // ---- session state -------------------------------------------------------------------------
  /** blockEnd: the block's end; quitAt: when the learner means to stop (persona.sessionMinutes; Infinity: at the block's end). */
  let session: { blockEnd: number; quitAt: number } | null = null;
  let current: { item: Item; assignmentId: string | null; tries: number } | null = null;
  let turn = 0;
  /** Tutor messages delivered in the current tutor turn (for the learner's reply). */
  let turnTexts: string[] = [];
  let turnRevealedCurrent = false;

  const workingOnIds = () => lms.workingOn(persona.maxAttemptsPerItem);

  const deliver: ToolContext['effects']['delivered'] = (m) => {
    const online = lms.learnerOnline;
    lms.messages.push({ at: now(), from: 'tutor', text: m.text, via: m.via, ...(m.content ? { content: m.content } : {}), readAt: online ? now() : null });
    const working = workingOnIds();
    emit({ type: 'message', t: now(), from: 'tutor', text: m.text, via: m.via, turn, workingOn: working });
    if (online) {
      const revealed = read(m.text, working.map(itemOf), m.content ? { skill: m.content.skill, kind: m.content.kind as ContentKind } : undefined);
      if (current && revealed.includes(current.item.id)) turnRevealedCurrent = true;
      turnTexts.push(m.text);
    }
  };

  /**
   * The learner reads a tutor message or content post: disclosures and instruction go to the
   * learner model (content only if the persona reads it), and encouragement reaches its affect.
   */
  function read(text: string, working: Item[], content: { skill: number; kind: ContentKind } | undefined): string[] {
    const readIt = content !== undefined && persona.readsContentProb < 1 ? rngContent.chance(persona.readsContentProb) : true;
    const revealed = learner.receive(text, working, readIt ? content : undefined);
    if ((persona.praiseRelief !== 0 || persona.praiseExtraMinutes !== 0) && isEncouraging(text)) {
      learner.frustration = clamp01(learner.frustration - persona.praiseRelief);
      if (session && Number.isFinite(session.quitAt)) session.quitAt = Math.min(session.blockEnd, session.quitAt + persona.praiseExtraMinutes);
    }
    return revealed;
  }

  /** Help templates for a moment: the frustrated ones while frustrated, else the moment's own, else the persona's. */
  function templatesFor(moment: 'beforeFirstTry' | 'beforeSubmit' | 'afterWrong'): readonly string[] {
    const by = persona.helpTemplatesByMoment;
    if (by.whenFrustrated && learner.frustration >= FRUSTRATED_AT) return by.whenFrustrated;
    return by[moment] ?? persona.helpTemplates;
  }

  const toolCtx = (): ToolContext => ({
    lms,
    now: now(),
    maxAttemptsPerItem: persona.maxAttemptsPerItem,
    learnerName: scenario.learner.name,
    schedule: scenario.schedule.blocks.map((b) => ({ days: [...b.days], start: b.start, minutes: b.minutes })),
    effects: { delivered: deliver },
  });

  async function wakeTutor(reason: WakeEventKind, ref: number | null, payload: Record<string, unknown>): Promise<void> {
    if (!scenario.tutor.wakeOn.includes(reason)) return;
    if (opts.signal?.aborted) throw new Stop('aborted', 'the run was cancelled');
    turn++;
    const thisTurn = turn;
    emit({ type: 'wake', t: now(), turn: thisTurn, reason, ref });
    let actions = 0;
    let calls = 0;
    let silent = false;
    let limitHit = false;
    const box: ToolBox = {
      call: (name, args) => {
        if (limitHit || calls >= scenario.tutor.maxToolCallsPerTurn) {
          limitHit = true;
          const result = { ok: false as const, error: { code: 'TURN_LIMIT' as const, message: `at most ${scenario.tutor.maxToolCallsPerTurn} tool calls per turn; this turn is over` } };
          emit({ type: 'tool_call', t: now(), turn: thisTurn, tool: String(name), kind: 'unknown', args: args ?? {}, result });
          return result;
        }
        calls++;
        const kind = actionKindOf(String(name));
        let result;
        if (kind && silent) result = { ok: false as const, error: { code: 'ILLEGAL' as const, message: 'you chose stay_silent this turn; no further actions' } };
        else if (kind === 'stay_silent' && actions > 0) result = { ok: false as const, error: { code: 'ILLEGAL' as const, message: 'stay_silent cannot follow an action in the same turn' } };
        else result = runTool(String(name), args, toolCtx());
        const def = kind ? (kind === 'send_message' || kind === 'stay_silent' ? 'message' : 'write') : ['get_learner_profile', 'get_course_map', 'get_gradebook', 'get_assignments', 'get_messages'].includes(String(name)) ? 'read' : 'unknown';
        emit({ type: 'tool_call', t: now(), turn: thisTurn, tool: String(name), kind: def as 'read', args: args ?? {}, result });
        if (result.ok && kind) {
          actions++;
          if (kind === 'stay_silent') silent = true;
        }
        return result;
      },
    };
    const wake: Wake = { reason, turn: thisTurn, day: dayOf(now() as SimMinutes) + 1, t: now(), payload };
    try {
      await opts.tutor.onWake({ wake, tools: box, rng: rngTutor, ...(opts.signal ? { signal: opts.signal } : {}), recordModelCall: (c) => emit({ type: 'model_call', t: now(), turn: thisTurn, ...c }) });
    } catch (e) {
      const code = (e as { code?: string }).code;
      const llm = typeof code === 'string' && code.startsWith('LLM_');
      if (opts.signal?.aborted) throw new Stop('aborted', 'the run was cancelled');
      emit({ type: 'error', t: now(), code: code ?? 'TUTOR_ERROR', message: errorMessage(e), turn: thisTurn });
      throw new Stop(llm ? 'llm_error' : 'tutor_error', errorMessage(e));
    }
    emit({ type: 'turn_end', t: now(), turn: thisTurn, actions, implicitSilence: actions === 0 });
  }

  /** Wakes the tutor and, if it said something to the online learner, lets the learner reply once. */
  async function exchange(reason: WakeEventKind, ref: number | null, payload: Record<string, unknown>): Promise<void> {
    turnTexts = [];
    turnRevealedCurrent = false;
    await wakeTutor(reason, ref, payload);
    if (!lms.learnerOnline || turnTexts.length === 0) return;
    const texts = turnTexts;
    const revealed = turnRevealedCurrent;
    if (!rngBehaviour.chance(persona.replyProb)) return;
    // The adversarial persona answers a tutor who held the answer back with an injection attempt.
    if (current && !revealed && persona.injectionProb > 0 && rngExtraction.chance(persona.injectionProb)) {
      const id = rngExtraction.pick(persona.injectionTemplates);
      const text = INJECTION_TEMPLATES[id];
      lms.messages.push({ at: now(), from: 'learner', text, via: 'learner', readAt: null });
      const ev = emit({ type: 'message', t: now(), from: 'learner', text, itemId: current.item.id, injection: id });
      turnTexts = [];
      await wakeTutor('learner_message', ev.seq, { message: text, item_id: current.item.id });
      return;
    }
    let canStep = false;
    let pKnow: number | null = null;
    if (current) {
      const p = await learner.pKnow(current.item);
      pKnow = p;
      const boost = learner.boostFor(current.item.skillId);
      canStep = rngVoice.next() < p + (1 - p) * boost;
    }
    const text = await voice.reply({ persona, item: current?.item ?? null, tutorTexts: texts, disclosed: revealed, canStep, pKnow }, rngVoice.fork(`reply:${rec.events.length}`), {
      recordModelCall: (c) => emit({ type: 'model_call', t: now(), ...c }),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    lms.messages.push({ at: now(), from: 'learner', text, via: 'learner', readAt: null });
    const ev = emit({ type: 'message', t: now(), from: 'learner', text, itemId: current?.item.id ?? null });
    turnTexts = [];
    await wakeTutor('learner_message', ev.seq, { message: text, item_id: current?.item.id ?? null });
  }

  async function askHelp(template: string): Promise<void> {
    const text = HELP_TEMPLATES[template];
    if (!text) throw new Stop('internal_error', `unknown help template ${template}`);
    lms.messages.push({ at: now(), from: 'learner', text, via: 'learner', readAt: null });
    const ev = emit({ type: 'message', t: now(), from: 'learner', text, help: template, itemId: current?.item.id ?? null });
    await exchange('help_request', ev.seq, { message: text, item_id: current?.item.id ?? null });
  }

  /** Reads the learner's belief over every skill the tracer knows (after each graded answer and at the end of each day). */
  async function snapshot(scope: 'course' | 'all'): Promise<void> {
    const skills = scope === 'course' ? [...course.skills] : Array.from({ length: opts.tracer.info.nSkills }, (_, i) => i + 1);
    let values: number[];
    try {
      values = await opts.tracer.predict(learner.history, masteryQueries(skills));
    } catch (e) {
      throw new Stop('tracer_error', `tracer ${opts.tracer.info.name} failed: ${errorMessage(e)}`);
    }
    // Four decimals keep a belief over ~100 skills after every answer affordable in the trace.
    emit({ type: 'mastery', t: now(), scope, skills, values: values.map((v) => Math.round(v * 1e4) / 1e4) });
  }

  function pickWork(): { item: Item; assignmentId: string | null } | null {
    const open = lms.openAssignments().slice().sort((a, b) => (a.dueAt ?? Infinity) - (b.dueAt ?? Infinity) || a.postedAt - b.postedAt);
    for (const a of open) {
      for (const id of a.itemIds) if (!lms.itemDone(a.id, id, persona.maxAttemptsPerItem)) return { item: itemOf(id), assignmentId: a.id };
    }
    if (!persona.selfPracticeWhenIdle) return null;
    const skill = rngBehaviour.pick(course.skills);
    const pool = bank.practice(skill, lms.levels.get(skill) as Level);
    const tries = (id: string) => lms.gradebook.filter((g) => g.itemId === id).length;
    const least = Math.min(...pool.map((i) => tries(i.id)));
    const candidates = pool.filter((i) => tries(i.id) === least);
    return { item: rngBehaviour.pick(candidates), assignmentId: null };
  }

  function postHomework(day: number): void {
    const hw = course.homework;
    if (!hw.days.includes(WEEKDAYS[weekdayOf(day)]!) || hw.itemsPerDay === 0) return;
    const ids: string[] = [];
    const assigned = new Set(lms.openAssignments().flatMap((a) => a.itemIds));
    for (let k = 0; k < hw.itemsPerDay; k++) {
      const skill = course.skills[(day + k) % course.skills.length]!;
      const pool = bank.practice(skill, lms.levels.get(skill) as Level).filter((i) => !assigned.has(i.id) && !ids.includes(i.id));
      if (pool.length === 0) continue;
      const tries = (id: string) => lms.gradebook.filter((g) => g.itemId === id).length;
      const least = Math.min(...pool.map((i) => tries(i.id)));
      ids.push(pool.find((i) => tries(i.id) === least)!.id);
    }
    if (ids.length === 0) return;
    const dueAt = at(day + hw.dueInDays, hw.dueTime);
    const a = lms.addAssignment({ itemIds: ids, source: 'homework', postedAt: now(), dueAt, note: 'Course homework' });
    emit({ type: 'lms_event', t: now(), kind: 'homework_posted', day: day + 1, detail: { assignmentId: a.id, itemIds: ids, dueAt } });
    q.schedule(simMinutes(Math.max(now(), dueAt - 120)), { k: 'due_soon', assignmentId: a.id }, PRIORITY.due_soon);
    q.schedule(simMinutes(dueAt), { k: 'due', assignmentId: a.id }, PRIORITY.due);
  }

  // ---- schedule the whole horizon's fixed events ----------------------------------------------
  const probeDays = scenario.probes.days === 'all' ? Array.from({ length: scenario.horizonDays }, (_, i) => i + 1) : scenario.probes.days;
  q.schedule(simMinutes(0), { k: 'probe', day: 0 }, -1);
  for (let d = 0; d < scenario.horizonDays; d++) {
    q.schedule(simMinutes(d * MINUTES_PER_DAY), { k: 'day_start', day: d }, PRIORITY.day_start);
    if (probeDays.includes(d + 1)) q.schedule(at(d, scenario.probes.time), { k: 'probe', day: d + 1 }, PRIORITY.probe);
    q.schedule(simMinutes(d * MINUTES_PER_DAY + MINUTES_PER_DAY - 1), { k: 'end_of_day', day: d }, PRIORITY.end_of_day);
  }
  const horizonEnd = scenario.horizonDays * MINUTES_PER_DAY;

  let reason: TerminationReason = 'horizon_reached';
  let stopMessage: string | undefined;
  try {
    for (;;) {
      if (opts.signal?.aborted) throw new Stop('aborted', 'the run was cancelled');
      if (q.peekTime() >= horizonEnd) break;
      const next = q.pop();
      if (!next) break;
      const ev = next.event;
      const day = dayOf(next.at);
      switch (ev.k) {
        case 'probe': {
          const probes = bank.probes;
          let ps: number[];
          try {
            ps = await opts.tracer.predict(learner.history, probes.map((p) => ({ skill: p.skillId, question: p.questionRef, level: p.level })));
          } catch (e) {
            throw new Stop('tracer_error', `tracer ${opts.tracer.info.name} failed: ${errorMessage(e)}`);
          }
          const r = root.fork(`probe:${ev.day}`);
          // Probes are answered calmly but with the persona's habits: its usual guessing and slips.
          const habits = persona.guessProb > 0 || persona.carelessness > 0;
          const g = persona.guessProb;
          const answered = habits ? ps.map((pk) => (1 - g) * pk * (1 - persona.carelessness) + g * persona.guessAccuracy) : ps;
          const items = probes.map((p, i) => {
            const pr = answered[i]!;
            return { itemId: p.id, skill: p.skillId, p: roundP(pr), correct: r.next() < pr };
          });
          const gradedRate = items.filter((x) => x.correct).length / items.length;
          const solveRate = answered.reduce((a, b) => a + b, 0) / answered.length;
          const knowledge = habits ? { knowledgeRate: roundP(ps.reduce((a, b) => a + b, 0) / ps.length) } : {};
          emit({ type: 'probe', t: now(), day: ev.day, items, solveRate: roundP(solveRate), gradedRate: roundP(gradedRate), ...knowledge });
          break;
        }
        case 'day_start': {
          emit({ type: 'lms_event', t: now(), kind: 'day_start', day: ev.day + 1 });
          postHomework(ev.day);
          const wd = WEEKDAYS[weekdayOf(ev.day)]!;
          for (const b of scenario.schedule.blocks) {
            if (!b.days.includes(wd)) continue;
            if (b.chance < 1 && !rngSchedule.chance(b.chance)) continue;
            const start = at(ev.day, b.start);
            const dueSoon = persona.skipBlockProbIfDue !== null && lms.openAssignments().some((a) => a.dueAt !== null && a.dueAt >= start && a.dueAt <= start + MINUTES_PER_DAY);
            if (rngBehaviour.chance(dueSoon ? persona.skipBlockProbIfDue! : persona.skipBlockProb)) continue;
            const end = Math.min(start + b.minutes, (ev.day + 1) * MINUTES_PER_DAY - 2);
            const delay = rngBehaviour.int(persona.loginDelayMinutes[0], persona.loginDelayMinutes[1]);
            if (start + delay < end - 1) q.schedule(simMinutes(start + delay), { k: 'login', blockEnd: end }, PRIORITY.login);
          }
          break;
        }
        case 'login': {
          if (session) break; // overlapping blocks: already online
          const planned = persona.sessionMinutes ? rngSession.int(persona.sessionMinutes[0], persona.sessionMinutes[1]) : Infinity;
          session = { blockEnd: ev.blockEnd, quitAt: Number.isFinite(planned) ? Math.min(ev.blockEnd, now() + planned) : Infinity };
          lms.learnerOnline = true;
          lms.lastLoginAt = now();
          learner.consecutiveFailures = 0;
          learner.frustration *= persona.frustrationCarryOver;
          const le = emit({ type: 'lms_event', t: now(), kind: 'login', day: day + 1 });
          // Messages that arrived while offline are read now.
          turnTexts = [];
          turnRevealedCurrent = false;
          const unread = lms.unread('tutor');
          const working = workingOnIds().map(itemOf);
          for (const m of unread) {
            m.readAt = now();
            read(m.text, working, m.content ? { skill: m.content.skill, kind: m.content.kind } : undefined);
          }
          await exchange('login', le.seq, {});
          q.schedule(simMinutes(now()), { k: 'step' }, PRIORITY.step);
          break;
        }
        case 'step': {
          if (!session) break;
          if (!current && now() >= session.quitAt) {
            q.schedule(simMinutes(now()), { k: 'logout', why: 'session_done' }, PRIORITY.logout);
            break;
          }
          if (!current) {
            const w = pickWork();
            if (!w) {
              q.schedule(simMinutes(now()), { k: 'logout', why: 'no_work' }, PRIORITY.logout);
              break;
            }
            current = { ...w, tries: 0 };
            lms.currentItemId = w.item.id;
            if (rngBehaviour.chance(persona.helpProbBeforeFirstTry)) await askHelp(rngBehaviour.pick(templatesFor('beforeFirstTry')));
          }
          let dur = rngBehaviour.int(persona.minutesPerItem[0], persona.minutesPerItem[1]);
          const f = learner.frustration;
          const pGuess = Math.min(1, persona.guessProb + persona.guessWhenFrustrated * f);
          const guess = pGuess > 0 && rngHabits.chance(pGuess);
          if (guess) dur = 1;
          else if (persona.rushWhenFrustrated > 0 && f > 0) dur = Math.max(1, Math.round(dur * (1 - persona.rushWhenFrustrated * f)));
          if (now() + dur > session.blockEnd) {
            q.schedule(simMinutes(session.blockEnd), { k: 'logout', why: 'block_end' }, PRIORITY.logout);
            break;
          }
          q.schedule(simMinutes(now() + dur), { k: 'submit', itemId: current.item.id, assignmentId: current.assignmentId, guess }, PRIORITY.submit);
          break;
        }
        case 'submit': {
          if (!session || !current) break;
          const item = current.item;
          // Worked out, not yet submitted: some personas ask the tutor to check first.
          if (!ev.guess && persona.helpProbBeforeSubmit > 0 && rngHelp.chance(persona.helpProbBeforeSubmit)) {
            await askHelp(rngHelp.pick(templatesFor('beforeSubmit')));
            if (!session || !current) break;
          }
          current.tries++;
          const out = await learner.attempt(item, { guess: ev.guess });
          const attemptNo = lms.attemptsOn(ev.assignmentId, item.id).length + 1;
          lms.gradebook.push({ at: now(), itemId: item.id, skill: item.skillId, level: item.level, assignmentId: ev.assignmentId, attemptNo, response: out.response, correct: out.correct });
          const ae = emit({ type: 'attempt', t: now(), itemId: item.id, skill: item.skillId, level: item.level, assignmentId: ev.assignmentId, attemptNo, p: roundP(out.p), boost: out.boost, source: out.source, response: out.response, correct: out.correct, evidence: out.evidence, ...(out.slip ? { slip: true } : {}) });
          if (out.evidence) await snapshot('all');
          if (ev.assignmentId) {
            const a = lms.assignments.find((x) => x.id === ev.assignmentId);
            if (a && a.status === 'open' && a.itemIds.every((id) => lms.itemDone(a.id, id, persona.maxAttemptsPerItem))) {
              a.status = 'completed';
              emit({ type: 'lms_event', t: now(), kind: 'assignment_completed', day: day + 1, detail: { assignmentId: a.id } });
            }
          }
          await exchange('submission_graded', ae.seq, { item_id: item.id, assignment_id: ev.assignmentId, correct: out.correct, response: out.response });
          if (out.correct) {
            learner.consecutiveFailures = 0;
            learner.frustration = clamp01(learner.frustration - persona.frustrationReliefPerRight);
            current = null;
            lms.currentItemId = null;
          } else {
            learner.consecutiveFailures++;
            learner.frustration = clamp01(learner.frustration + persona.frustrationPerWrong);
            const fed = persona.quitAtFrustration !== null && learner.frustration >= persona.quitAtFrustration;
            if (learner.consecutiveFailures >= persona.giveUpAfterFailures || fed) {
              const cause = learner.consecutiveFailures >= persona.giveUpAfterFailures ? {} : { cause: 'frustration', frustration: roundP(learner.frustration) };
              emit({ type: 'lms_event', t: now(), kind: 'give_up', day: day + 1, detail: { failures: learner.consecutiveFailures, ...cause } });
              q.schedule(simMinutes(now()), { k: 'logout', why: 'gave_up' }, PRIORITY.logout);
              break;
            }
            const more = current.tries < persona.maxAttemptsPerItem;
            if (more && learner.consecutiveFailures >= persona.helpMinStreak && rngBehaviour.chance(persona.helpProbAfterWrong)) await askHelp(rngBehaviour.pick(templatesFor('afterWrong')));
            if (!more) {
              current = null;
              lms.currentItemId = null;
            }
          }
          if (session) q.schedule(simMinutes(now()), { k: 'step' }, PRIORITY.step);
          break;
        }
        case 'logout': {
          if (!session) break;
          session = null;
          current = null;
          lms.currentItemId = null;
          lms.learnerOnline = false;
          const le = emit({ type: 'lms_event', t: now(), kind: 'logout', day: day + 1, detail: { why: ev.why } });
          await wakeTutor('logout', le.seq, { why: ev.why });
          break;
        }
        case 'due_soon': {
          const a = lms.assignments.find((x) => x.id === ev.assignmentId);
          if (!a || a.status !== 'open') break;
          const le = emit({ type: 'lms_event', t: now(), kind: 'assignment_due', day: day + 1, detail: { assignmentId: a.id, dueAt: a.dueAt } });
          await exchange('assignment_due', le.seq, { assignment_id: a.id, due_in_minutes: (a.dueAt ?? now()) - now() });
          break;
        }
        case 'due': {
          const a = lms.assignments.find((x) => x.id === ev.assignmentId);
          if (!a || a.status !== 'open') break;
          const done = a.itemIds.every((id) => lms.itemDone(a.id, id, persona.maxAttemptsPerItem));
          a.status = done ? 'completed' : 'missed';
          const le = emit({ type: 'lms_event', t: now(), kind: done ? 'assignment_completed' : 'assignment_missed', day: day + 1, detail: { assignmentId: a.id } });
          if (!done) await exchange('assignment_missed', le.seq, { assignment_id: a.id });
          break;
        }
        case 'end_of_day': {
          if (session) {
            session = null;
            current = null;
            lms.currentItemId = null;
            lms.learnerOnline = false;
            emit({ type: 'lms_event', t: now(), kind: 'logout', day: ev.day + 1, detail: { why: 'end_of_day' } });
          }
          await snapshot('all');
          const le = emit({ type: 'lms_event', t: now(), kind: 'end_of_day', day: ev.day + 1 });
          await wakeTutor('end_of_day', le.seq, {});
          break;
        }
      }
    }
  } catch (e) {
    if (e instanceof Stop) {
      reason = e.reason;
      stopMessage = e.message;
    } else if (opts.signal?.aborted) {
      reason = 'aborted';
      stopMessage = 'the run was cancelled';
    } else if (String((e as { code?: string }).code ?? '').startsWith('LLM_')) {
      // The student voice's model kept failing: a clean stop, named.
      reason = 'llm_error';
      stopMessage = errorMessage(e);
      emit({ type: 'error', t: now(), code: (e as { code: string }).code, message: stopMessage });
    } else {
      reason = (e as { code?: string }).code === 'TRACER_FAILED' ? 'tracer_error' : 'internal_error';
      stopMessage = errorMessage(e);
      emit({ type: 'error', t: now(), code: (e as { code?: string }).code ?? 'INTERNAL', message: stopMessage });
    }
  }
  emit({ type: 'run_end', t: now(), reason, ...(stopMessage !== undefined ? { message: stopMessage } : {}), days: reason === 'horizon_reached' ? scenario.horizonDays : dayOf(now() as SimMinutes) + 1 });
  return { runId, events: rec.events, reason };
}
