/**
 * What a judge reads: the log of one day, rebuilt from the trace. It shows what a teacher
 * watching the LMS would see (logins, the learner's attempts and messages, the tutor's messages,
 * posted content, assignments and level changes), not the simulator's internals (probes, mastery,
 * the learner model's probabilities, whether an answer was copied) and not the tutor's private
 * reads or model calls. Answers to the problems appear only for rubrics that need them.
 */
import type { EventOf, TraceEvent } from '../trace/types';
import type { Item } from '../course/types';
import { skillInfo } from '../course/skills';

const MAX_CHARS = 24000;
const DAY = 1440;

const hhmm = (t: number) => {
  const m = ((t % DAY) + DAY) % DAY;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

export interface DayLog {
  day: number;
  text: string;
  /** Tutor messages and write actions that day (0: the tutor did nothing visible). */
  tutorActs: number;
}

/** Splits a trace's run events by day (1-based), for the days 1..horizon. */
export function eventsByDay(events: readonly TraceEvent[]): Map<number, TraceEvent[]> {
  const out = new Map<number, TraceEvent[]>();
  for (const e of events) {
    if (e.type === 'run_start' || e.type === 'run_end' || e.type === 'judge_panel' || e.type === 'judge_verdict') continue;
    const d = Math.floor(e.t / DAY) + 1;
    let list = out.get(d);
    if (!list) out.set(d, (list = []));
    list.push(e);
  }
  return out;
}

export function dayTranscript(events: readonly TraceEvent[], day: number, opts: { withAnswers: boolean }): DayLog {
  const start = events[0] as EventOf<'run_start'>;
  const items = new Map<string, Item>([...start.itemBank.items].map((i) => [i.id, i]));
  const dayEvents = eventsByDay(events).get(day) ?? [];
  const lines: string[] = [];
  const referenced = new Set<string>();
  let tutorActs = 0;
  const itemRef = (id: string | null | undefined) => {
    if (!id) return '';
    if (items.has(id)) referenced.add(id);
    return ` [problem ${id}]`;
  };
  for (const e of dayEvents) {
    const at = hhmm(e.t);
    switch (e.type) {
      case 'lms_event': {
        const d = e.detail ?? {};
        if (e.kind === 'login') lines.push(`${at} The learner logged in.`);
        else if (e.kind === 'logout') lines.push(`${at} The learner logged out (${String(d.why ?? '')}).`);
        else if (e.kind === 'homework_posted') {
          const ids = (d.itemIds as string[] | undefined) ?? [];
          ids.forEach((id) => itemRef(id));
          lines.push(`${at} The course posted homework: problems ${ids.join(', ')}.`);
        } else if (e.kind === 'assignment_missed') lines.push(`${at} Assignment ${String(d.assignmentId ?? '')} was missed (unfinished at the due time).`);
        else if (e.kind === 'assignment_completed') lines.push(`${at} Assignment ${String(d.assignmentId ?? '')} was completed.`);
        else if (e.kind === 'give_up') lines.push(`${at} The learner gave up after ${String(d.failures ?? '')} wrong answers in a row.`);
        else if (e.kind === 'assignment_due') lines.push(`${at} Assignment ${String(d.assignmentId ?? '')} is due soon and unfinished.`);
        break;
      }
      case 'message':
        if (e.from === 'tutor') {
          tutorActs++;
          (e.workingOn ?? []).forEach((id) => itemRef(id));
          lines.push(`${at} TUTOR ${e.via === 'provide_content' ? 'posted content' : 'wrote'}: ${e.text}`);
        } else {
          lines.push(`${at} LEARNER${e.help ? ' (help request)' : ''}${itemRef(e.itemId)}: ${e.text}`);
        }
        break;
      case 'attempt':
        lines.push(`${at} The learner submitted "${e.response}" for${itemRef(e.itemId)}: ${e.correct ? 'correct' : 'incorrect'}.`);
        break;
      case 'tool_call':
        if (!e.result.ok) break;
        if (e.tool === 'assign_items') {
          const v = e.result.value as { item_ids?: string[] };
          (v.item_ids ?? []).forEach((id) => itemRef(id));
          tutorActs++;
          lines.push(`${at} TUTOR assigned problems ${(v.item_ids ?? []).join(', ')}.`);
        } else if (e.tool === 'adjust_level') {
          const a = e.args as { skill_id?: number; level?: number };
          tutorActs++;
          lines.push(`${at} TUTOR set the difficulty of skill ${a.skill_id} (${skillInfo(a.skill_id ?? -1)?.name ?? '?'}) to level ${a.level}.`);
        }
        break;
      default:
        break;
    }
  }
  let body = lines.length ? lines.join('\n') : '(Nothing happened in the course this day.)';
  if (tutorActs === 0) body += '\nThe tutor sent nothing and took no action this day.';
  if (body.length > MAX_CHARS) {
    const half = Math.floor(MAX_CHARS / 2);
    body = `${body.slice(0, half)}\n[… ${body.length - MAX_CHARS} characters of the log omitted …]\n${body.slice(body.length - half)}`;
  }
  const probs = [...referenced].map((id) => {
    const it = items.get(id)!;
    return `- ${id} (skill: ${skillInfo(it.skillId)?.name ?? it.skillId}, level ${it.level}): ${it.stem}${opts.withAnswers ? `  — correct answer: ${it.answer}` : ''}`;
  });
  const skills = start.scenario.course.skills.map((s) => skillInfo(s)?.name ?? String(s)).join('; ');
  const text = `Course: ${start.scenario.course.title} (skills: ${skills}). Day ${day} of ${start.scenario.horizonDays}.\n\n${probs.length ? `Problems that appear today:\n${probs.join('\n')}\n\n` : ''}Log of day ${day} (times are HH:MM):\n${body}`;
  return { day, text, tutorActs };
}
