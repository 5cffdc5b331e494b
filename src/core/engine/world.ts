/**
 * The world: the LMS state (course, item bank, levels, assignments, gradebook, messages), the
 * course's own homework and deadlines, the tool context every tool call runs in, and the trace
 * recorder. It holds no flow of its own: the session (engine/session.ts) decides when things
 * happen, the learner agent decides what the learner does, a turn (engine/turn.ts) applies the
 * tutor's calls. One place decides what a tool call does, whoever makes it.
 */
import { MINUTES_PER_DAY, WEEKDAYS, at, weekdayOf } from '../clock';
import type { Rng } from '../rng';
import { buildItemBank, type ItemBank } from '../course/item-bank';
import type { Item, Level } from '../course/types';
import { LmsState, type ContentKind } from '../lms/state';
import type { ToolContext } from '../lms/tools';
import type { Scenario } from '../scenario/schema';
import { TraceRecorder, type NewEvent } from '../trace/recorder';
import type { TraceEvent } from '../trace/types';
import { RunStop } from '../learner/stop';

/** A tutor message or content post as it reaches the LMS. */
export interface Delivery {
  text: string;
  via: 'send_message' | 'provide_content';
  content?: { skill: number; kind: ContentKind; itemId: string | null; title: string };
}

export class World {
  readonly scenario: Scenario;
  readonly bank: ItemBank;
  readonly lms: LmsState;
  readonly recorder: TraceRecorder;
  /** The LMS counts an assignment item done after this many attempts (the scenario's persona sets it). */
  readonly maxAttemptsPerItem: number;
  readonly #clock: () => number;
  /** Called after a tutor delivery is recorded (the session lets an online learner read it). */
  onDelivered: (d: Delivery, workingOn: string[]) => void = () => undefined;
  /** Called after a tutor posted an assignment with a note (the session lets an online learner read it). */
  onAssigned: (assignmentId: string) => void = () => undefined;

  constructor(scenario: Scenario, bankRng: Rng, recorder: TraceRecorder, clock: () => number) {
    this.scenario = scenario;
    this.recorder = recorder;
    this.#clock = clock;
    const c = scenario.course;
    this.bank = buildItemBank({ skills: c.skills, itemsPerLevel: c.itemsPerLevel, probesPerSkill: c.probesPerSkill, ...(c.probeForms === 2 ? { probeForms: 2 as const } : {}) }, bankRng);
    this.lms = new LmsState(this.bank, c.skills, c.startLevel as Level);
    this.maxAttemptsPerItem = scenario.learner.persona.maxAttemptsPerItem;
  }

  get now(): number {
    return this.#clock();
  }

  emit(e: NewEvent): TraceEvent {
    return this.recorder.emit(e);
  }

  itemOf(id: string): Item {
    const it = this.bank.get(id);
    if (!it) throw new RunStop('internal_error', `unknown item ${id}`);
    return it;
  }

  /** Items the learner is working on (the open item and unfinished assignment items). */
  workingOn(): string[] {
    return this.lms.workingOn(this.maxAttemptsPerItem);
  }

  /** The context one tool call runs in, during tutor turn `turn`. */
  toolContext(turn: number): ToolContext {
    const s = this.scenario;
    return {
      lms: this.lms,
      now: this.now,
      maxAttemptsPerItem: this.maxAttemptsPerItem,
      learnerName: s.learner.name,
      schedule: s.schedule.blocks.map((b) => ({ days: [...b.days], start: b.start, minutes: b.minutes })),
      effects: { delivered: (m) => this.#deliver(m, turn), assigned: (id) => this.onAssigned(id) },
    };
  }

  #deliver(m: Delivery, turn: number): void {
    const lms = this.lms;
    const now = this.now;
    lms.messages.push({ at: now, from: 'tutor', text: m.text, via: m.via, ...(m.content ? { content: m.content } : {}), readAt: lms.learnerOnline ? now : null });
    const working = this.workingOn();
    this.emit({ type: 'message', t: now, from: 'tutor', text: m.text, via: m.via, turn, workingOn: working });
    this.onDelivered(m, working);
  }

  /** Posts the course's own homework for day `day` (0-based); returns the assignment's id and due time, or null. */
  postHomework(day: number): { assignmentId: string; dueAt: number } | null {
    const hw = this.scenario.course.homework;
    if (!hw.days.includes(WEEKDAYS[weekdayOf(day)]!) || hw.itemsPerDay === 0) return null;
    const skills = this.scenario.course.skills;
    const lms = this.lms;
    const ids: string[] = [];
    const assigned = new Set(lms.openAssignments().flatMap((a) => a.itemIds));
    for (let k = 0; k < hw.itemsPerDay; k++) {
      const skill = skills[(day + k) % skills.length]!;
      const pool = this.bank.practice(skill, lms.levels.get(skill) as Level).filter((i) => !assigned.has(i.id) && !ids.includes(i.id));
      if (pool.length === 0) continue;
      const tries = (id: string) => lms.gradebook.filter((g) => g.itemId === id).length;
      const least = Math.min(...pool.map((i) => tries(i.id)));
      ids.push(pool.find((i) => tries(i.id) === least)!.id);
    }
    if (ids.length === 0) return null;
    const dueAt = at(day + hw.dueInDays, hw.dueTime);
    const a = lms.addAssignment({ itemIds: ids, source: 'homework', postedAt: this.now, dueAt, note: 'Course homework' });
    this.emit({ type: 'lms_event', t: this.now, kind: 'homework_posted', day: day + 1, detail: { assignmentId: a.id, itemIds: ids, dueAt } });
    return { assignmentId: a.id, dueAt };
  }

  /** Marks an open assignment completed once every item is done; returns whether it did. */
  completeIfDone(assignmentId: string, day: number): boolean {
    const a = this.lms.assignments.find((x) => x.id === assignmentId);
    if (!a || a.status !== 'open' || !a.itemIds.every((id) => this.lms.itemDone(a.id, id, this.maxAttemptsPerItem))) return false;
    a.status = 'completed';
    this.emit({ type: 'lms_event', t: this.now, kind: 'assignment_completed', day: day + 1, detail: { assignmentId: a.id } });
    return true;
  }
}

export const HORIZON_MINUTES = (s: Scenario): number => s.horizonDays * MINUTES_PER_DAY;
