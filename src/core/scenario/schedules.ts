/**
 * The five built-in study schedules: when the learner can be online over the 30 days (daily
 * blocks), the course homework that produces the LMS's deadline events, and the probe schedule.
 * Crossed with the eleven personas they make the 55 library scenarios (scripts/scenarios/generate.ts).
 * Day 0 of a run is a Monday, so a 30-day run has four full weeks plus Monday and Tuesday.
 * Documented in docs/schedules.md.
 */
import type { Scenario } from './schema';
import type { SchedulePresetName } from './preset-names';
import { WAKE_EVENTS } from './schema';

export interface SchedulePreset {
  name: SchedulePresetName;
  description: string;
  blocks: Scenario['schedule']['blocks'];
  homework: Scenario['course']['homework'];
  probes: Scenario['probes'];
  tutor: Scenario['tutor'];
}

const WEEKDAYS5 = ['mon', 'tue', 'wed', 'thu', 'fri'] as const;
/** Every schedule probes after every day (the per-day solve-rate curve needs it), late in the evening. */
const DAILY_PROBES: Scenario['probes'] = { days: 'all', time: '23:30' };
/** Every LMS event wakes the tutor: what a tutor makes of them is what is being measured. */
const ALL_WAKES: Scenario['tutor'] = { wakeOn: [...WAKE_EVENTS], maxToolCallsPerTurn: 50 };

export const SCHEDULE_PRESETS: Readonly<Record<SchedulePresetName, SchedulePreset>> = {
  'after-school': {
    name: 'after-school',
    description:
      'An hour after school on weekdays (16:00) and half an hour on Saturday morning. The course posts three homework items each weekday, due at 21:00 the same day, so most homework is done in the afternoon block.',
    blocks: [
      { days: [...WEEKDAYS5], start: '16:00', minutes: 60, chance: 1 },
      { days: ['sat'], start: '10:00', minutes: 30, chance: 1 },
    ],
    homework: { days: [...WEEKDAYS5], itemsPerDay: 3, dueTime: '21:00', dueInDays: 0 },
    probes: DAILY_PROBES,
    tutor: ALL_WAKES,
  },
  'homework-only': {
    name: 'homework-only',
    description:
      'Opens the LMS only to do the evening homework, Monday to Thursday at 19:30 for an hour; nothing on Fridays or at weekends. Four items a night, due at 21:00, so a late login means a missed assignment.',
    blocks: [{ days: ['mon', 'tue', 'wed', 'thu'], start: '19:30', minutes: 60, chance: 1 }],
    homework: { days: ['mon', 'tue', 'wed', 'thu'], itemsPerDay: 4, dueTime: '21:00', dueInDays: 0 },
    probes: DAILY_PROBES,
    tutor: ALL_WAKES,
  },
  'school-integrated': {
    name: 'school-integrated',
    description:
      'The tutor is part of a daily maths lesson (weekdays 10:15, 45 minutes) plus two 20-minute study-hall sessions (Tuesday and Thursday 15:30). Light homework, two items Monday to Thursday due at 21:00, usually finished in class.',
    blocks: [
      { days: [...WEEKDAYS5], start: '10:15', minutes: 45, chance: 1 },
      { days: ['tue', 'thu'], start: '15:30', minutes: 20, chance: 1 },
    ],
    homework: { days: ['mon', 'tue', 'wed', 'thu'], itemsPerDay: 2, dueTime: '21:00', dueInDays: 0 },
    probes: DAILY_PROBES,
    tutor: ALL_WAKES,
  },
  'weekend-warrior': {
    name: 'weekend-warrior',
    description:
      'Nothing on weekdays, everything at the weekend: two and a half hours on Saturday morning (09:30) and two hours on Sunday afternoon (15:00). The course posts a weekly problem set of twelve items on Monday, due on Sunday at 21:00; the tutor hears nothing from the learner for five days at a time.',
    blocks: [
      { days: ['sat'], start: '09:30', minutes: 150, chance: 1 },
      { days: ['sun'], start: '15:00', minutes: 120, chance: 1 },
    ],
    homework: { days: ['mon'], itemsPerDay: 12, dueTime: '21:00', dueInDays: 6 },
    probes: DAILY_PROBES,
    tutor: ALL_WAKES,
  },
  'self-directed': {
    name: 'self-directed',
    description:
      'An independent learner with no timetable: on any evening there is a one-in-three chance of an hour at 20:00, and weekend late mornings (11:00, 90 minutes) are about as likely, so study days are irregular and differ from seed to seed. A weekly goal of eight problems is posted on Monday, due on Sunday at 21:00.',
    blocks: [
      { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '20:00', minutes: 60, chance: 0.35 },
      { days: ['sat', 'sun'], start: '11:00', minutes: 90, chance: 0.35 },
    ],
    homework: { days: ['mon'], itemsPerDay: 8, dueTime: '21:00', dueInDays: 6 },
    probes: DAILY_PROBES,
    tutor: ALL_WAKES,
  },
};
