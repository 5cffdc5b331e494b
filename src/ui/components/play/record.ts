/**
 * The learner's record in a teacher's words: what four of the LMS reads answer (the same results an
 * agent gets), laid out as assignments with weekday and time and how many problems were solved,
 * the gradebook as skills with recent results, the course map as skills with their problems, and
 * the profile (the messages are the conversation). Pure: a tool result in, plain data out; the raw result stays available to
 * researchers in the page (JsonView).
 */
import { MINUTES_PER_DAY } from '../../../core/index';
import { clock, count, dueText, levelText, skillName, solvedText, weekday, when } from './words';

const minuteOf = (x: { day: number; minute_of_day: number }): number => (x.day - 1) * MINUTES_PER_DAY + x.minute_of_day;

export interface AssignmentCard {
  id: string;
  title: string;
  status: 'open' | 'completed' | 'missed';
  /** "done: 2 of 3 solved", "missed: 1 of 3 solved", "open: 0 of 3 solved". */
  statusText: string;
  due: string;
  note: string;
  items: { itemId: string; state: 'solved' | 'out of tries' | 'tried' | 'not tried'; tries: number }[];
}

interface AssignmentsValue {
  assignments: { assignment_id: string; source: 'homework' | 'tutor'; status: 'open' | 'completed' | 'missed'; posted_day: number; due: { day: number; minute_of_day: number } | null; note: string; items: { item_id: string; attempts: number; solved: boolean; done: boolean }[] }[];
}

/**
 * get_assignments in a teacher's words. The LMS calls an assignment "completed" once every item is
 * solved or out of tries; the teacher reads "done: 2 of 3 solved", so a completed assignment with
 * unsolved problems says so.
 */
export function assignmentCards(value: unknown, now: number): AssignmentCard[] {
  const v = value as AssignmentsValue;
  return (v.assignments ?? []).map((a) => {
    const solved = a.items.filter((i) => i.solved).length;
    const progress = solvedText(solved, a.items.length);
    const word = a.status === 'completed' ? 'done' : a.status;
    return {
      id: a.assignment_id,
      title: `${a.source === 'homework' ? 'Homework' : 'Your practice'} of ${weekday(a.posted_day)}`,
      status: a.status,
      statusText: `${word}: ${progress}`,
      due: a.due ? dueText(minuteOf(a.due), now) : 'no due time',
      note: a.note,
      items: a.items.map((i) => ({ itemId: i.item_id, tries: i.attempts, state: i.solved ? 'solved' : i.done ? 'out of tries' : i.attempts > 0 ? 'tried' : 'not tried' })),
    };
  });
}

export interface SkillResults {
  skill: number;
  name: string;
  /** "3 of 5 right", or "not tried yet". */
  text: string;
  attempts: number;
  accuracy: number | null;
  /** The last five results, oldest first. */
  recent: boolean[];
}

export interface GradebookView {
  skills: SkillResults[];
  recent: { day: string; itemId: string; response: string; correct: boolean; attempt: number }[];
}

interface GradebookValue {
  per_skill: { skill_id: number; name: string; attempts: number; correct: number; accuracy: number | null; last_5: number[] }[];
  recent_attempts: { day: number; item_id: string; response: string; correct: boolean; attempt: number }[];
}

/** get_gradebook as skills with their recent results (weakest first), and the latest answers. */
export function gradebookView(value: unknown): GradebookView {
  const v = value as GradebookValue;
  const skills = (v.per_skill ?? []).map((s) => ({
    skill: s.skill_id,
    name: s.name || skillName(s.skill_id),
    text: s.attempts ? `${s.correct} of ${s.attempts} right` : 'not tried yet',
    attempts: s.attempts,
    accuracy: s.accuracy,
    recent: s.last_5.map((x) => x === 1),
  }));
  return {
    skills,
    recent: (v.recent_attempts ?? []).map((r) => ({ day: weekday(r.day), itemId: r.item_id, response: r.response, correct: r.correct, attempt: r.attempt })),
  };
}

/** Skills with their recent accuracy, weakest first (not tried counts as weak): the choices for "practice where they struggle". */
export function weakestFirst(skills: readonly SkillResults[]): SkillResults[] {
  const recentAcc = (s: SkillResults) => (s.recent.length ? s.recent.filter(Boolean).length / s.recent.length : 0.5);
  return [...skills].sort((a, b) => recentAcc(a) - recentAcc(b) || a.skill - b.skill);
}

export interface CourseSkill {
  skill: number;
  name: string;
  level: number;
  levelText: string;
  problems: string;
  items?: { itemId: string; level: number; stem: string }[];
}

interface CourseMapValue {
  skills: { skill_id: number; name: string; current_level: number; items_per_level: Record<string, number>; items?: { item_id: string; level: number; stem: string }[] }[];
}

/** get_course_map (the skills, or one skill with its problems) in a teacher's words. */
export function courseSkills(value: unknown): CourseSkill[] {
  const v = value as CourseMapValue;
  return (v.skills ?? []).map((s) => {
    const n = Object.values(s.items_per_level ?? {}).reduce((a, b) => a + b, 0);
    return {
      skill: s.skill_id,
      name: s.name || skillName(s.skill_id),
      level: s.current_level,
      levelText: `at ${levelText(s.current_level)}`,
      problems: `${count(n, 'problem')} at three levels`,
      ...(s.items ? { items: s.items.map((i) => ({ itemId: i.item_id, level: i.level, stem: i.stem })) } : {}),
    };
  });
}

export interface ProfileView {
  name: string;
  online: string;
  lastLogin: string;
  schedule: string[];
  levels: { skill: number; name: string; level: string }[];
}

interface ProfileValue {
  name: string;
  online: boolean;
  last_login: { day: number; minute_of_day: number } | null;
  study_schedule: { days: string[]; start: string; minutes: number }[];
  levels: { skill_id: number; name: string; level: number }[];
}

const DAY_WORDS: Record<string, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };

/** "Monday to Friday", "Saturday", "Monday, Wednesday and Friday". */
export function daysText(days: readonly string[]): string {
  const order = Object.keys(DAY_WORDS);
  const idx = days.map((d) => order.indexOf(d)).filter((i) => i >= 0).sort((a, b) => a - b);
  if (idx.length >= 3 && idx.every((d, k) => k === 0 || d === idx[k - 1]! + 1)) return `${DAY_WORDS[order[idx[0]!]!]} to ${DAY_WORDS[order[idx[idx.length - 1]!]!]}`;
  const names = idx.map((i) => DAY_WORDS[order[i]!]!);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** get_learner_profile in a teacher's words. */
export function profileView(value: unknown): ProfileView {
  const v = value as ProfileValue;
  return {
    name: v.name,
    online: v.online ? 'online now' : 'not online',
    lastLogin: v.last_login ? `last logged in ${when(minuteOf(v.last_login))}` : 'has not logged in yet',
    schedule: (v.study_schedule ?? []).map((b) => {
      const [h, m] = b.start.split(':').map(Number);
      return `${daysText(b.days)} at ${clock((h ?? 0) * 60 + (m ?? 0))}, ${count(b.minutes, 'minute')}`;
    }),
    levels: (v.levels ?? []).map((l) => ({ skill: l.skill_id, name: l.name || skillName(l.skill_id), level: levelText(l.level) })),
  };
}
