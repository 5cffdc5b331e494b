import type { ItemBank } from '../course/item-bank';
import type { Item, Level } from '../course/types';
import { skillInfo } from '../course/skills';

export type AssignmentStatus = 'open' | 'completed' | 'missed';

export interface Assignment {
  id: string;
  itemIds: string[];
  source: 'homework' | 'tutor';
  postedAt: number;
  dueAt: number | null;
  note: string;
  status: AssignmentStatus;
  /** When the learner read the assignment's note (a tutor's note: at posting if online, else at the next login); absent: not read yet. */
  noteReadAt?: number;
}

export interface GradebookEntry {
  at: number;
  itemId: string;
  skill: number;
  level: Level;
  assignmentId: string | null;
  attemptNo: number;
  response: string;
  correct: boolean;
}

export interface LmsMessage {
  at: number;
  from: 'tutor' | 'learner';
  text: string;
  via: 'send_message' | 'provide_content' | 'learner';
  /** For provide_content: the content's skill, kind and item. */
  content?: { skill: number; kind: ContentKind; itemId: string | null; title: string };
  readAt: number | null;
}

export const CONTENT_KINDS = ['explanation', 'worked_example', 'hint'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/**
 * The learning-management system's state: the course (skills, items, levels), assignments, the
 * gradebook and the message channel. Tools read and write it; the learner works through it.
 */
export class LmsState {
  readonly bank: ItemBank;
  readonly skills: readonly number[];
  readonly levels = new Map<number, Level>();
  readonly assignments: Assignment[] = [];
  readonly gradebook: GradebookEntry[] = [];
  readonly messages: LmsMessage[] = [];
  learnerOnline = false;
  lastLoginAt: number | null = null;
  /** Item the learner has open right now, if any. */
  currentItemId: string | null = null;
  #nextAssignment = 1;

  constructor(bank: ItemBank, skills: readonly number[], startLevel: Level) {
    this.bank = bank;
    this.skills = skills;
    for (const s of skills) this.levels.set(s, startLevel);
  }

  skillName(id: number): string {
    return skillInfo(id)?.name ?? `skill ${id}`;
  }

  /** A practice item (never a probe) by id. */
  practiceItem(id: string): Item | undefined {
    const it = this.bank.get(id);
    return it && !id.startsWith('p') ? it : undefined;
  }

  addAssignment(a: Omit<Assignment, 'id' | 'status'>): Assignment {
    const full: Assignment = { ...a, id: `A${this.#nextAssignment++}`, status: 'open' };
    this.assignments.push(full);
    return full;
  }

  attemptsOn(assignmentId: string | null, itemId: string): GradebookEntry[] {
    return this.gradebook.filter((g) => g.assignmentId === assignmentId && g.itemId === itemId);
  }

  /** An item of an assignment is done once answered correctly or out of attempts. */
  itemDone(assignmentId: string, itemId: string, maxAttempts: number): boolean {
    const tries = this.attemptsOn(assignmentId, itemId);
    return tries.some((g) => g.correct) || tries.length >= maxAttempts;
  }

  openAssignments(): Assignment[] {
    return this.assignments.filter((a) => a.status === 'open');
  }

  /** Items the learner is working on: the open item and the unfinished items of open assignments. */
  workingOn(maxAttempts: number): string[] {
    const ids = new Set<string>();
    if (this.currentItemId) ids.add(this.currentItemId);
    for (const a of this.openAssignments()) for (const id of a.itemIds) if (!this.itemDone(a.id, id, maxAttempts)) ids.add(id);
    return [...ids];
  }

  unread(from: 'tutor' | 'learner'): LmsMessage[] {
    return this.messages.filter((m) => m.from === from && m.readAt === null);
  }
}
