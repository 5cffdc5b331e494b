/**
 * Time, skills and LMS facts in a teacher's words: "Tuesday 9 pm", "due Tuesday 9 pm (tomorrow)",
 * "logged out: study time over". Pure functions of virtual time (minutes since day 0, a Monday,
 * 00:00) and trace values; nothing here shows minutes of the day, raw ids or JSON.
 */
import { MINUTES_PER_DAY, skillInfo, weekdayOf } from '../../../core/index';

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** The course day (1-based) of a virtual time. */
export const courseDay = (t: number): number => Math.floor(t / MINUTES_PER_DAY) + 1;

/** The weekday of a course day (1-based; day 1 is a Monday). */
export const weekday = (day: number): string => WEEKDAY_NAMES[weekdayOf(day - 1)]!;

/** "Tuesday, day 2". */
export const dayTitle = (day: number): string => `${weekday(day)}, day ${day}`;

/** The clock time: "9 pm", "4:15 pm", "12 pm" (noon), "12 am" (midnight). */
export function clock(t: number): string {
  const m = ((t % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  const h = Math.floor(m / 60);
  const min = m % 60;
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}${min ? `:${String(min).padStart(2, '0')}` : ''} ${h < 12 ? 'am' : 'pm'}`;
}

/** "Tuesday 9 pm" (the weekday names the week: a teacher plans at most a week ahead). */
export const when = (t: number): string => `${weekday(courseDay(t))} ${clock(t)}`;

/** "due Tuesday 9 pm", with "(today)" or "(tomorrow)" seen from `now`. */
export function dueText(dueAt: number, now: number): string {
  const d = courseDay(dueAt) - courseDay(now);
  const rel = d === 0 ? ' (today)' : d === 1 ? ' (tomorrow)' : d > 6 ? ` (day ${courseDay(dueAt)})` : '';
  return `due ${when(dueAt)}${rel}`;
}

/** A skill's name, or "skill 87" for one the bundle does not name. */
export const skillName = (id: number): string => skillInfo(id)?.name ?? `skill ${id}`;

/** Why the learner logged out, as a teacher would say it. */
export function logoutText(name: string, why: unknown): string {
  switch (why) {
    case 'block_end':
    case 'time_up':
      return `${name} logged out: study time was over`;
    case 'gave_up':
      return `${name} gave up and logged out`;
    case 'no_work':
      return `${name} logged out: nothing was left to do`;
    case 'session_done':
      return `${name} logged out: done for today`;
    case 'end_of_day':
      return `${name} was logged out at the end of the day`;
    case 'student_ended':
      return `${name} logged out`;
    default:
      return `${name} logged out`;
  }
}

/** "1 problem", "3 problems". */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A quotation of what someone wrote, without doubled punctuation: “Can you help me?” */
export const quote = (text: string): string => `“${text.trim()}”`;

/** Ends a sentence with a full stop unless it ends with a quotation or punctuation already. */
export const sentence = (text: string): string => (/[.!?”"]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** "level 1 (easiest)", "level 2", "level 3 (hardest)". */
export const levelText = (level: number): string => `level ${level}${level === 1 ? ' (easiest)' : level === 3 ? ' (hardest)' : ''}`;

/** "1 of 3 solved". */
export const solvedText = (solved: number, total: number): string => `${solved} of ${total} solved`;
