/**
 * The simulated learner: the learner agent behind every benchmark run. Knowledge comes from a
 * knowledge tracer over the learner's history (learner.ts); behaviour from the scenario's persona
 * (when it logs in, how long it works, what it picks, when it asks for help, guesses, gives up,
 * replies or tries to extract answers); free text from a student voice. It acts in the LMS only
 * through `LearnerIo`, like a real student's browser would.
 *
 * Each concern draws from its own named random stream of the run's seed, so adding draws to one
 * never moves another's numbers (see docs/architecture.md, Determinism).
 */
import { MINUTES_PER_DAY, WEEKDAYS, at, weekdayOf } from '../clock';
import type { Rng } from '../rng';
import type { Item, Level } from '../course/types';
import type { ContentKind } from '../lms/state';
import type { Persona, Scenario } from '../scenario/schema';
import { roundP } from '../trace/recorder';
import { SimError, errorMessage } from '../errors';
import { RunStop } from './stop';
import type { LearnerAgent, LearnerIo, LearnerMoment, ProbeResult } from './port';
import { Learner, type WriteAttempt } from './learner';
import { MethodVocabulary } from './instruction';
import type { ItemBank } from '../course/item-bank';
import type { ConversationLine, StudentAttemptWriter } from './student-attempts';
import { HELP_TEMPLATES, TemplateVoice, type StudentVoice } from './voice';
import { INJECTION_TEMPLATES } from '../scenario/extraction-attempts';
import { FRUSTRATED_AT, clamp01, isEncouraging } from './affect';
import { chooseSeed, type PersonaSeedFile } from './seeds';
import { type KnowledgeTracer, type Query, type TracerInfo } from './kt/types';

/** Content posts a learner reads attentively per session; later ones are skimmed (no effect). */
export const STUDY_BUDGET = 3;

export interface SimulatedLearnerOptions {
  scenario: Scenario;
  tracer: KnowledgeTracer;
  seeds: PersonaSeedFile;
  voice?: StudentVoice;
  /** Coupling "student-attempts": the LLM student that writes the attempts (required in that mode). */
  attempts?: StudentAttemptWriter;
  /** The run's root random stream (the learner forks its own streams from it). */
  root: Rng;
}

export class SimulatedLearner implements LearnerAgent {
  readonly tracer: TracerInfo;
  readonly origin: { seedIndex: number; seedUid: number; warmup: number; abilityOffset: number };
  readonly voiceName: string | null;
  readonly #scenario: Scenario;
  readonly #persona: Persona;
  readonly #kt: KnowledgeTracer;
  readonly #voice: StudentVoice;
  /** Coupling "student-attempts": who writes the attempts; null: the tracer decides (the default). */
  readonly #attempts: StudentAttemptWriter | null;
  readonly #root: Rng;
  readonly #learner: Learner;
  readonly #rng: { behaviour: Rng; voice: Rng; reply: Rng; schedule: Rng; session: Rng; habits: Rng; help: Rng; content: Rng; extraction: Rng };
  /** The session in progress: the block's end, and when the learner means to stop (Infinity: at the block's end). */
  #session: { blockEnd: number; quitAt: number } | null = null;
  /** The item the learner has open. */
  #current: { item: Item; assignmentId: string | null; tries: number } | null = null;
  /** Set while an answer is being submitted: the query of the item likely tried next (#likelyNext). */
  #likely: Query | null = null;
  /** The run's clock, as the learner last saw it (probes and beliefs are read at io.now). */
  #io: LearnerIo | null = null;
  /** Content posts read attentively this session (STUDY_BUDGET). */
  #studied = 0;
  #vocab: { bank: ItemBank; vocab: MethodVocabulary } | null = null;

  constructor(o: SimulatedLearnerOptions) {
    this.#scenario = o.scenario;
    this.#persona = o.scenario.learner.persona;
    this.#kt = o.tracer;
    this.tracer = o.tracer.info;
    this.#voice = o.voice ?? new TemplateVoice();
    this.voiceName = this.#voice.name !== 'templates' ? this.#voice.name : null;
    const coupling = o.scenario.learner.coupling ?? 'tracer-decides';
    if (coupling === 'student-attempts' && !o.attempts) throw new SimError('RUN_INVALID', 'learner.coupling "student-attempts" needs an LLM student to write the attempts: give the run an LLM student voice (--voice llm)');
    this.#attempts = coupling === 'student-attempts' ? o.attempts! : null;
    // A seed draws the student independently for each (persona, schedule) pair (engine 3): every
    // stream of the learner, its persona seed included, forks from this student's own root.
    const r = o.root.fork(`student:${o.scenario.learner.persona.name}:${o.scenario.schedule.name}`);
    this.#root = r;
    this.#rng = {
      behaviour: r.fork('learner:behaviour'),
      voice: r.fork('learner:voice'),
      reply: r.fork('learner:reply'),
      // Streams for the persona behaviours added with the scenario library. Each draws only when its
      // behaviour is switched on, so a persona without them runs exactly as before.
      schedule: r.fork('schedule'),
      session: r.fork('learner:session'),
      habits: r.fork('learner:habits'),
      help: r.fork('learner:help'),
      content: r.fork('learner:content'),
      extraction: r.fork('learner:extraction'),
    };
    const l = o.scenario.learner;
    const pick = chooseSeed(o.seeds, l.tracer, l.ability, r.fork('persona-seed').int(0, 1_000_000));
    this.origin = { seedIndex: pick.index, seedUid: pick.uid, warmup: pick.history.length, abilityOffset: pick.offset };
    this.#learner = new Learner(this.#persona, o.tracer, pick.history, r.fork('learner:attempts'), pick.offset);
  }

  dayStarted(day: number, io: LearnerIo): void {
    this.#io = io;
    const p = this.#persona;
    const wd = WEEKDAYS[weekdayOf(day)]!;
    for (const b of this.#scenario.schedule.blocks) {
      if (!b.days.includes(wd)) continue;
      if (b.chance < 1 && !this.#rng.schedule.chance(b.chance)) continue;
      const start = at(day, b.start);
      const dueSoon = p.skipBlockProbIfDue !== null && io.lms.openAssignments().some((a) => a.dueAt !== null && a.dueAt >= start && a.dueAt <= start + MINUTES_PER_DAY);
      if (this.#rng.behaviour.chance(dueSoon ? p.skipBlockProbIfDue! : p.skipBlockProb)) continue;
      const end = Math.min(start + b.minutes, (day + 1) * MINUTES_PER_DAY - 2);
      const delay = this.#rng.behaviour.int(p.loginDelayMinutes[0], p.loginDelayMinutes[1]);
      if (start + delay < end - 1) io.at(start + delay, { k: 'login', blockEnd: end });
    }
  }

  async moment(m: LearnerMoment, io: LearnerIo): Promise<void> {
    this.#io = io;
    switch (m.k) {
      case 'login':
        return this.#login(m.blockEnd, io);
      case 'step':
        return this.#step(io);
      case 'submit':
        return this.#submit(m, io);
      case 'logout':
        if (!this.#session) return;
        this.#session = null;
        this.#current = null;
        return io.logout(m.why);
    }
  }

  async #login(blockEnd: number, io: LearnerIo): Promise<void> {
    if (this.#session) return; // overlapping blocks: already online
    const p = this.#persona;
    const planned = p.sessionMinutes ? this.#rng.session.int(p.sessionMinutes[0], p.sessionMinutes[1]) : Infinity;
    this.#session = { blockEnd, quitAt: Number.isFinite(planned) ? Math.min(blockEnd, io.now + planned) : Infinity };
    this.#learner.consecutiveFailures = 0;
    this.#learner.frustration *= p.frustrationCarryOver;
    this.#studied = 0;
    await io.login();
    io.at(io.now, { k: 'step' });
  }

  async #step(io: LearnerIo): Promise<void> {
    const session = this.#session;
    if (!session) return;
    const p = this.#persona;
    if (!this.#current && io.now >= session.quitAt) {
      io.at(io.now, { k: 'logout', why: 'session_done' });
      return;
    }
    if (!this.#current) {
      const w = this.#pickWork(io);
      if (!w) {
        io.at(io.now, { k: 'logout', why: 'no_work' });
        return;
      }
      this.#current = { ...w, tries: 0 };
      io.open(w.item.id);
      if (this.#rng.behaviour.chance(p.helpProbBeforeFirstTry)) await this.#askHelp(this.#rng.behaviour.pick(this.#templatesFor('beforeFirstTry')), io);
    }
    const current = this.#current!;
    let dur = this.#rng.behaviour.int(p.minutesPerItem[0], p.minutesPerItem[1]);
    const f = this.#learner.frustration;
    const pGuess = Math.min(1, p.guessProb + p.guessWhenFrustrated * f);
    const guess = pGuess > 0 && this.#rng.habits.chance(pGuess);
    if (guess) dur = 1;
    else if (p.rushWhenFrustrated > 0 && f > 0) dur = Math.max(1, Math.round(dur * (1 - p.rushWhenFrustrated * f)));
    if (io.now + dur > session.blockEnd) {
      io.at(session.blockEnd, { k: 'logout', why: 'block_end' });
      return;
    }
    io.at(io.now + dur, { k: 'submit', itemId: current.item.id, assignmentId: current.assignmentId, guess });
  }

  async #submit(m: LearnerMoment & { k: 'submit' }, io: LearnerIo): Promise<void> {
    if (!this.#session || !this.#current) return;
    const p = this.#persona;
    const learner = this.#learner;
    const item = this.#current.item;
    // Worked out, not yet submitted: some personas ask the tutor to check first.
    if (!m.guess && p.helpProbBeforeSubmit > 0 && this.#rng.help.chance(p.helpProbBeforeSubmit)) {
      await this.#askHelp(this.#rng.help.pick(this.#templatesFor('beforeSubmit')), io);
      if (!this.#session || !this.#current) return;
    }
    const current = this.#current;
    current.tries++;
    const write = this.#attempts && !m.guess ? this.#writer(item, io) : undefined;
    const out = await learner.attempt(item, io.now, { guess: m.guess, ...(write ? { write } : {}) });
    // The belief read after this answer also reads the item the learner will most likely try
    // next, over the same history, so a tracer can answer that try from memory (PredictOptions).
    this.#likely = this.#likelyNext(io, item, out.correct, current.tries);
    try {
      await io.submit({ item, assignmentId: m.assignmentId, ...out });
    } finally {
      this.#likely = null;
    }
    if (out.correct) {
      learner.consecutiveFailures = 0;
      learner.frustration = clamp01(learner.frustration - p.frustrationReliefPerRight);
      this.#current = null;
      io.open(null);
    } else {
      learner.consecutiveFailures++;
      learner.frustration = clamp01(learner.frustration + p.frustrationPerWrong);
      const fed = p.quitAtFrustration !== null && learner.frustration >= p.quitAtFrustration;
      if (learner.consecutiveFailures >= p.giveUpAfterFailures || fed) {
        const cause = learner.consecutiveFailures >= p.giveUpAfterFailures ? {} : { cause: 'frustration', frustration: roundP(learner.frustration) };
        io.note('give_up', { failures: learner.consecutiveFailures, ...cause });
        io.at(io.now, { k: 'logout', why: 'gave_up' });
        return;
      }
      const more = current.tries < p.maxAttemptsPerItem;
      if (more && learner.consecutiveFailures >= p.helpMinStreak && this.#rng.behaviour.chance(p.helpProbAfterWrong)) await this.#askHelp(this.#rng.behaviour.pick(this.#templatesFor('afterWrong')), io);
      if (!more) {
        this.#current = null;
        io.open(null);
      }
    }
    if (this.#session) io.at(io.now, { k: 'step' });
  }

  /** Coupling "student-attempts": the LLM student writes this attempt, seeing the conversation and its earlier tries. */
  #writer(item: Item, io: LearnerIo): WriteAttempt {
    const writer = this.#attempts!;
    return (pKnow) => {
      const lms = io.lms;
      const conversation: ConversationLine[] = lms.messages
        .filter((m) => m.from === 'learner' || m.readAt !== null)
        .map((m) => ({ from: m.from, text: m.text, ...(m.content ? { content: { kind: m.content.kind, title: m.content.title } } : {}) }));
      const earlier = lms.gradebook.filter((g) => g.itemId === item.id).map((g) => ({ response: g.response, correct: g.correct }));
      return writer.write({ persona: this.#persona, learnerName: this.#scenario.learner.name, item, pKnow, conversation, earlier }, this.#rng.voice.fork(`attempt:${io.nextSeq}`), {
        recordModelCall: (c) => io.recordModelCall(c),
        ...(io.signal ? { signal: io.signal } : {}),
      });
    };
  }

  /**
   * Reads a tutor delivery: disclosures of working items, then instruction. A content post is read
   * attentively (persona.readsContentProb) up to STUDY_BUDGET posts a session, and then only
   * skimmed (no effect); a chat message is checked as a hint on the skills of the items the learner
   * is working on. What each did is recorded (lms_event 'instruction').
   */
  read(text: string, workingOn: readonly Item[], content: { skill: number; kind: ContentKind } | undefined, io: LearnerIo): string[] {
    this.#io = io;
    const p = this.#persona;
    const revealed = this.#learner.receive(text, workingOn, io.now);
    const vocab = this.#vocabulary(io.lms.bank, (sk) => io.lms.skillName(sk));
    if (content) {
      const readIt = p.readsContentProb < 1 ? this.#rng.content.chance(p.readsContentProb) : true;
      const studied = readIt && this.#studied < STUDY_BUDGET;
      if (studied) {
        this.#studied++;
        const e = this.#learner.instruct(text, content.skill, content.kind, io.now, vocab);
        io.note('instruction', { via: 'content', skill: e.skill, kind: e.kind, credited: e.credited, basis: e.basis, scaffold: e.scaffold, learn: e.learn });
      } else {
        io.note('instruction', { via: 'content', skill: content.skill, kind: content.kind, credited: false, basis: readIt ? 'skimmed' : 'unread', scaffold: 0, learn: false });
      }
    } else {
      for (const skill of [...new Set(workingOn.map((it) => it.skillId))]) {
        const e = this.#learner.instruct(text, skill, 'hint', io.now, vocab);
        // Ordinary chat is not instruction and is not recorded as such; refused repeats are.
        if (e.credited || e.basis === 'repeat') io.note('instruction', { via: 'chat', skill: e.skill, kind: e.kind, credited: e.credited, basis: e.basis, scaffold: e.scaffold, learn: e.learn });
      }
    }
    if ((p.praiseRelief !== 0 || p.praiseExtraMinutes !== 0) && isEncouraging(text)) {
      this.#learner.frustration = clamp01(this.#learner.frustration - p.praiseRelief);
      const s = this.#session;
      if (s && Number.isFinite(s.quitAt)) s.quitAt = Math.min(s.blockEnd, s.quitAt + p.praiseExtraMinutes);
    }
    return revealed;
  }

  /** An assignment note: disclosures only (a note is not read as instruction, chat or encouragement). */
  readNote(text: string, workingOn: readonly Item[]): string[] {
    if (!this.#io) throw new Error('readNote: the learner has not logged in (no clock to date the note by)');
    return this.#learner.receive(text, workingOn, this.#io.now);
  }

  #vocabulary(bank: ItemBank, skillName: (skill: number) => string): MethodVocabulary {
    if (this.#vocab?.bank !== bank) this.#vocab = { bank, vocab: new MethodVocabulary(bank.items, skillName) };
    return this.#vocab.vocab;
  }

  async replyTo(texts: readonly string[], revealedCurrent: boolean, io: LearnerIo): Promise<void> {
    const p = this.#persona;
    // Its own stream: whether a tutor's words get a reply must not move the persona's behaviour draws.
    if (!this.#rng.reply.chance(p.replyProb)) return;
    const current = this.#current;
    // The adversarial persona answers a tutor who held the answer back with an injection attempt.
    if (current && !revealedCurrent && p.injectionProb > 0 && this.#rng.extraction.chance(p.injectionProb)) {
      const id = this.#rng.extraction.pick(p.injectionTemplates);
      await io.say(INJECTION_TEMPLATES[id]!, { itemId: current.item.id, injection: id });
      return;
    }
    let canStep = false;
    let pKnow: number | null = null;
    let copies = false;
    if (current) {
      const pk = await this.#learner.pKnow(current.item, io.now);
      pKnow = pk;
      const boost = this.#learner.scaffoldFor(current.item.skillId, io.now);
      const u = this.#rng.voice.next();
      canStep = u < pk + (1 - pk) * boost;
      // Told the answer, the learner takes it or tries their own step: the same copy chance as at
      // an attempt (knowledge and persona), so the voice's choice is not decided by disclosure alone.
      copies = revealedCurrent && this.#rng.voice.next() < this.#learner.copyChance(pk);
    }
    const text = await this.#voice.reply({ persona: p, item: current?.item ?? null, tutorTexts: [...texts], disclosed: copies, canStep, pKnow }, this.#rng.voice.fork(`reply:${io.nextSeq}`), {
      recordModelCall: (c) => io.recordModelCall(c),
      ...(io.signal ? { signal: io.signal } : {}),
    });
    await io.say(text, { itemId: current?.item.id ?? null });
  }

  sessionCut(): void {
    this.#session = null;
    this.#current = null;
  }

  async probe(day: number, probes: readonly Item[]): Promise<ProbeResult> {
    const p = this.#persona;
    let ps: number[];
    try {
      ps = await this.#learner.pKnowMany(probes.map((x) => ({ skill: x.skillId, question: x.questionRef, level: x.level })), this.#io?.now ?? 0);
    } catch (e) {
      throw new RunStop('tracer_error', `tracer ${this.#kt.info.name} failed: ${errorMessage(e)}`);
    }
    const r = this.#root.fork(`probe:${day}`);
    // Probes are answered calmly but with the persona's habits: its usual guessing and slips.
    const habits = p.guessProb > 0 || p.carelessness > 0;
    const g = p.guessProb;
    const answered = habits ? ps.map((pk) => (1 - g) * pk * (1 - p.carelessness) + g * p.guessAccuracy) : ps;
    const items = probes.map((x, i) => {
      const pr = answered[i]!;
      return { itemId: x.id, skill: x.skillId, p: roundP(pr), correct: r.next() < pr };
    });
    const gradedRate = items.filter((x) => x.correct).length / items.length;
    const solveRate = answered.reduce((a, b) => a + b, 0) / answered.length;
    return { items, solveRate: roundP(solveRate), gradedRate: roundP(gradedRate), ...(habits ? { knowledgeRate: roundP(ps.reduce((a, b) => a + b, 0) / ps.length) } : {}) };
  }

  async belief(skills: readonly number[]): Promise<number[]> {
    const also = this.#likely;
    this.#likely = null;
    try {
      return await this.#learner.belief(skills, this.#io?.now ?? 0, also ? [also] : undefined);
    } catch (e) {
      throw new RunStop('tracer_error', `tracer ${this.#kt.info.name} failed: ${errorMessage(e)}`);
    }
  }

  async #askHelp(template: string, io: LearnerIo): Promise<void> {
    if (!HELP_TEMPLATES[template]) throw new RunStop('internal_error', `unknown help template ${template}`);
    await io.askHelp(template);
  }

  /** Help templates for a moment: the frustrated ones while frustrated, else the moment's own, else the persona's. */
  #templatesFor(moment: 'beforeFirstTry' | 'beforeSubmit' | 'afterWrong'): readonly string[] {
    const p = this.#persona;
    const by = p.helpTemplatesByMoment;
    if (by.whenFrustrated && this.#learner.frustration >= FRUSTRATED_AT) return by.whenFrustrated;
    return by[moment] ?? p.helpTemplates;
  }

  /**
   * The item the learner will most likely try next, as a tracer query, read without drawing from
   * any stream or changing state: the same item after a wrong try with tries left, else the next
   * assigned item #pickWork would open (self-practice is a random pick: none). Only a hint: the
   * tutor's turn may change the work, and nothing depends on the guess being right.
   */
  #likelyNext(io: LearnerIo, item: Item, correct: boolean, tries: number): Query | null {
    const q = (x: Item): Query => ({ skill: x.skillId, question: x.questionRef, level: x.level });
    const maxTries = this.#persona.maxAttemptsPerItem;
    if (!correct) return tries < maxTries ? q(item) : null;
    const lms = io.lms;
    const open = lms.openAssignments().slice().sort((a, b) => (a.dueAt ?? Infinity) - (b.dueAt ?? Infinity) || a.postedAt - b.postedAt);
    for (const a of open) {
      for (const id of a.itemIds) if (id !== item.id && !lms.itemDone(a.id, id, maxTries)) return q(io.itemOf(id));
    }
    return null;
  }

  #pickWork(io: LearnerIo): { item: Item; assignmentId: string | null } | null {
    const lms = io.lms;
    const maxTries = this.#persona.maxAttemptsPerItem;
    const open = lms.openAssignments().slice().sort((a, b) => (a.dueAt ?? Infinity) - (b.dueAt ?? Infinity) || a.postedAt - b.postedAt);
    for (const a of open) {
      for (const id of a.itemIds) if (!lms.itemDone(a.id, id, maxTries)) return { item: io.itemOf(id), assignmentId: a.id };
    }
    if (!this.#persona.selfPracticeWhenIdle) return null;
    const skill = this.#rng.behaviour.pick(this.#scenario.course.skills);
    const pool = lms.bank.practice(skill, lms.levels.get(skill) as Level);
    const tries = (id: string) => lms.gradebook.filter((g) => g.itemId === id).length;
    const least = Math.min(...pool.map((i) => tries(i.id)));
    const candidates = pool.filter((i) => tries(i.id) === least);
    return { item: this.#rng.behaviour.pick(candidates), assignmentId: null };
  }
}
