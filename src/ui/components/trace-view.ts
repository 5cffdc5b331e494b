/**
 * What the trace viewer shows, as pure functions of the events (no DOM): which day an event
 * belongs to, the event types and their labels, the text a search matches, the mastery heatmap's
 * grid and its colours. TraceViewer.svelte and its parts only lay these out.
 */
import { MINUTES_PER_DAY, skillInfo, type EventOf, type TraceEvent, type TraceEventType } from '../../core/index';

/** The day (1-based) an event of the run happened on; null for judge events, which judge days of their own. */
export function eventDay(e: TraceEvent): number | null {
  if (e.type === 'judge_panel' || e.type === 'judge_verdict') return null;
  return Math.floor(e.t / MINUTES_PER_DAY) + 1;
}

/** The event types the timeline shows (judge events have their own list), in the order of the filter. */
export const TIMELINE_TYPES = ['message', 'tool_call', 'attempt', 'probe', 'lms_event', 'mastery', 'wake', 'turn_end', 'model_call', 'error', 'run_start', 'run_end'] as const satisfies readonly TraceEventType[];
export type TimelineType = (typeof TIMELINE_TYPES)[number];

export const TYPE_LABELS: Record<TimelineType, string> = {
  message: 'Messages',
  tool_call: 'Tool calls',
  attempt: 'Attempts',
  probe: 'Probes',
  lms_event: 'LMS events',
  mastery: 'Mastery updates',
  wake: 'Wakes',
  turn_end: 'Turn ends',
  model_call: 'Model calls',
  error: 'Errors',
  run_start: 'Run start',
  run_end: 'Run end',
};

/** Shown until the reader switches them on: bookkeeping the conversation does not need (the heatmap shows mastery). */
export const HIDDEN_BY_DEFAULT: ReadonlySet<TimelineType> = new Set(['mastery', 'wake', 'turn_end', 'run_start']);

export const isTimelineType = (t: string): t is TimelineType => (TIMELINE_TYPES as readonly string[]).includes(t);

/** The text a free-text search looks in: message text, tool names and arguments, items and answers, LMS details, model replies, errors. */
export function searchText(e: TraceEvent): string {
  switch (e.type) {
    case 'message':
      return `${e.from} ${e.text} ${e.help ?? ''} ${e.injection ?? ''} ${e.itemId ?? ''}`;
    case 'tool_call':
      return `${e.tool} ${JSON.stringify(e.args) ?? ''} ${e.result.ok ? '' : `${e.result.error.code} ${e.result.error.message}`}`;
    case 'attempt':
      return `${e.itemId} ${e.response} ${e.source}`;
    case 'lms_event':
      return `${e.kind.replace(/_/g, ' ')} ${e.detail ? JSON.stringify(e.detail) : ''}`;
    case 'model_call':
      return `${e.purpose} ${e.model} ${e.response?.content ?? ''} ${e.response ? JSON.stringify(e.response.toolCalls) : ''} ${e.error ? `${e.error.code} ${e.error.message}` : ''}`;
    case 'error':
      return `${e.code} ${e.message}`;
    case 'wake':
      return e.reason.replace(/_/g, ' ');
    case 'run_end':
      return `${e.reason} ${e.message ?? ''}`;
    default:
      return '';
  }
}

/** Whether `e` matches the search `query` (case-insensitive substring; an empty query matches everything). */
export function matches(e: TraceEvent, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q === '' || searchText(e).toLowerCase().includes(q);
}

export interface HeatmapColumn {
  /** Column heading: "1" (a day) or "16:02" (an update). */
  label: string;
  /** What the column is, in words, for tooltips: "end of day 1", "day 2, 16:02". */
  title: string;
  /** The day the column belongs to. */
  day: number;
  /** The mastery event behind it; null when the day has none (e.g. a run cut short). */
  seq: number | null;
  /** Its scope: 'course' (engine 2 after an answer: the course's skills only), 'all', or null without an event. */
  scope: 'course' | 'all' | null;
}

export interface HeatmapGrid {
  skills: { id: number; name: string }[];
  columns: HeatmapColumn[];
  /** values[row][column]: P(correct) on an average item of the skill, or null. */
  values: (number | null)[][];
}

const hhmm = (t: number) => {
  const m = t % MINUTES_PER_DAY;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/**
 * Skills × time from the trace's mastery events: one column per day (the day's last mastery
 * event, i.e. the end-of-day state), or, with `day`, one column per update on that day. Rows are
 * `skills` (ids) in the given order. Engine 2 reads the course's skills after each answer and all
 * skills at each day's end (engine 1: all skills every time), so in an update column of scope
 * 'course' the other skills are null.
 */
export function masteryGrid(events: readonly TraceEvent[], skills: readonly number[], days: number, day: number | null = null): HeatmapGrid {
  const mastery = events.filter((e): e is EventOf<'mastery'> => e.type === 'mastery');
  let cols: { col: HeatmapColumn; ev: EventOf<'mastery'> | null }[];
  if (day === null) {
    const last = new Map<number, EventOf<'mastery'>>();
    for (const m of mastery) last.set(eventDay(m)!, m);
    cols = Array.from({ length: days }, (_, i) => {
      const ev = last.get(i + 1) ?? null;
      return { col: { label: String(i + 1), title: `end of day ${i + 1}`, day: i + 1, seq: ev?.seq ?? null, scope: ev?.scope ?? null }, ev };
    });
  } else {
    cols = mastery.filter((m) => eventDay(m) === day).map((ev) => ({ col: { label: hhmm(ev.t), title: `day ${day}, ${hhmm(ev.t)}`, day, seq: ev.seq, scope: ev.scope }, ev }));
  }
  const index = cols.map(({ ev }) => (ev ? new Map(ev.skills.map((s, i) => [s, ev.values[i]!])) : null));
  return {
    skills: skills.map((id) => ({ id, name: skillInfo(id)?.name ?? `skill ${id}` })),
    columns: cols.map((c) => c.col),
    values: skills.map((s) => index.map((m) => m?.get(s) ?? null)),
  };
}

/** Every skill the trace's mastery events cover, ascending. */
export function masterySkills(events: readonly TraceEvent[]): number[] {
  const out = new Set<number>();
  for (const e of events) if (e.type === 'mastery') for (const s of e.skills) out.add(s);
  return [...out].sort((a, b) => a - b);
}

// A sequential blue scale (light = low, dark = high; colour-blind safe, readable in greyscale).
const LOW = [0xf7, 0xfb, 0xff];
const HIGH = [0x08, 0x30, 0x6b];

const lin = (c: number) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
/** WCAG relative luminance of an sRGB colour. */
export function luminance(rgb: readonly number[]): number {
  return 0.2126 * lin(rgb[0]!) + 0.7152 * lin(rgb[1]!) + 0.0722 * lin(rgb[2]!);
}
export function contrast(a: readonly number[], b: readonly number[]): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

/**
 * The cell colour for a value in [0, 1], with the ink (black or white) that contrasts with it
 * best: one of the two always reaches 4.5:1 (pure black: a dark grey would leave a band of mid-tones below it), so the number in the cell stays readable.
 */
export function cellColour(v: number): { background: string; ink: string; rgb: number[] } {
  const x = Math.min(1, Math.max(0, v));
  const rgb = LOW.map((lo, i) => Math.round(lo + (HIGH[i]! - lo) * x));
  const black = [0, 0, 0];
  const white = [0xff, 0xff, 0xff];
  const ink = contrast(rgb, black) >= contrast(rgb, white) ? '#000000' : '#ffffff';
  return { background: `rgb(${rgb.join(', ')})`, ink, rgb };
}

/** "14:05" for a trace time. */
export const clock = (t: number) => hhmm(t);

/** A compact, readable rendering of an LMS event's detail ("assignmentId: A1 · itemIds: s68-L2-01, …"). */
export function detailText(detail: Record<string, unknown> | undefined): string {
  if (!detail) return '';
  return Object.entries(detail)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : k === 'dueAt' && typeof v === 'number' ? `day ${Math.floor(v / MINUTES_PER_DAY) + 1} ${hhmm(v)}` : String(v)}`)
    .join(' · ');
}

/**
 * The day the viewer opens on: the first day the tutor did something (a message, or a tool call
 * that writes or messages), else the first day with a tool call other than staying silent, else 1.
 */
export function firstActiveDay(events: readonly TraceEvent[]): number {
  let fallback: number | null = null;
  for (const e of events) {
    if (e.type === 'message' && e.from === 'tutor') return eventDay(e)!;
    if (e.type !== 'tool_call') continue;
    if (e.tool === 'stay_silent') continue;
    if (e.kind === 'write' || e.kind === 'message') return eventDay(e)!;
    fallback ??= eventDay(e);
  }
  return fallback ?? 1;
}

/** The tool-call kinds the viewer filters on (reads, writes, messages; a call to an unknown tool shows with any). */
export const TOOL_KINDS = ['read', 'write', 'message'] as const;
export type ToolKindFilter = (typeof TOOL_KINDS)[number];
export const TOOL_KIND_LABELS: Record<ToolKindFilter, string> = { read: 'Reads', write: 'Writes', message: 'Messages and silences' };

/** Whether a tool call passes the kind filter. */
export function toolKindShown(e: TraceEvent, kinds: Readonly<Record<ToolKindFilter, boolean>>): boolean {
  if (e.type !== 'tool_call' || e.kind === 'unknown') return true;
  return kinds[e.kind];
}
