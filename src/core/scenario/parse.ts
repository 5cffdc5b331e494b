import { LineCounter, parseDocument, isAlias, isMap, isNode, isScalar, isSeq, visit, type Document } from 'yaml';
import { z } from 'zod';
import { ScenarioSchema, SCENARIO_LIMITS, type Scenario } from './schema';
import { TRACER_NAMES, isTracerName } from '../tracers';
import { SimError } from '../errors';
import { skillInfo } from '../course/skills';
import { GENERATORS } from '../course/generators/index';
import { buildItemBank, ItemBankShortage } from '../course/item-bank';
import { MINUTES_PER_DAY, parseHhmm, WEEKDAYS } from '../clock';
import { Rng } from '../rng';
import { applyPersonaPreset } from './resolve';

export interface ScenarioIssue {
  /** Field path, e.g. "learner.persona.replyProb" or "schedule.blocks[0].start". */
  path: string;
  message: string;
  /** 1-based line and column in the file, when known. */
  line?: number;
  col?: number;
}

/** A scenario file failed to parse or validate. `issues` says what, where. */
export class ScenarioError extends SimError {
  readonly file: string;
  readonly issues: ScenarioIssue[];
  constructor(file: string, issues: ScenarioIssue[], parseError = false) {
    super(
      parseError ? 'SCENARIO_PARSE' : 'SCENARIO_INVALID',
      `${file}: ${issues.length} problem${issues.length === 1 ? '' : 's'}\n` +
        issues.map((i) => `  ${file}:${i.line ?? '?'}:${i.col ?? '?'} ${i.path || '(document)'}: ${i.message}`).join('\n'),
    );
    this.name = 'ScenarioError';
    this.file = file;
    this.issues = issues;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

function locate(doc: Document, lc: LineCounter, path: readonly PropertyKey[]): { line?: number; col?: number } {
  // Walk up the path until a node with a source range exists (missing keys point at their parent).
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true);
    if (isNode(node) && node.range) {
      const pos = lc.linePos(node.range[0]);
      return { line: pos.line, col: pos.col };
    }
  }
  // Nothing of the path is in the text (an empty file, a document of only comments): its start.
  return { line: 1, col: 1 };
}

/**
 * The field at a position of the text: the path of the deepest key or list entry whose source
 * range holds it (for YAML errors, which the parser reports by position only). A position before
 * any key (e.g. a broken first line) gives "(document)".
 */
function pathAt(doc: Document, pos: number): string {
  const path: (string | number)[] = [];
  let node: unknown = doc.contents;
  for (let depth = 0; depth < 64; depth++) {
    if (isMap(node)) {
      // The last pair that starts at or before the position (a duplicate key is the later pair).
      let hit: { key: unknown; value: unknown } | null = null;
      for (const pair of node.items) {
        const start = isNode(pair.key) && pair.key.range ? pair.key.range[0] : isNode(pair.value) && pair.value.range ? pair.value.range[0] : null;
        // A key the parser could not read (an error node) is skipped: the error is then reported at the field before it.
        if (start !== null && start <= pos && isScalar(pair.key) && String(pair.key.value) !== '') hit = pair;
      }
      if (!hit || !isScalar(hit.key)) break;
      const k = String(hit.key.value);
      path.push(k.length > 80 ? `${k.slice(0, 80)}…` : k);
      node = hit.value;
    } else if (isSeq(node)) {
      let hit = -1;
      node.items.forEach((it, i) => {
        if (isNode(it) && it.range && it.range[0] <= pos) hit = i;
      });
      if (hit < 0) break;
      path.push(hit);
      node = node.items[hit];
    } else break;
  }
  return path.length ? formatPath(path) : '(document)';
}

/** Files larger than this (in characters of text, or bytes on disk) are refused before parsing: the largest scenario of the library is about 7 KB. */
export const MAX_SCENARIO_BYTES = 256 * 1024;
/** Problems listed per file (a badly broken file would otherwise list hundreds). */
const MAX_ISSUES = 20;
/** Aliases a scenario may expand (YAML anchors are allowed; an "alias bomb" that would expand to millions of nodes is refused). */
export const MAX_SCENARIO_ALIASES = 100;

/** The first alias of the document, for where an alias bomb is. */
function firstAlias(doc: Document, lc: LineCounter): { path: string; line?: number; col?: number } {
  let found: { path: string; line?: number; col?: number } | null = null;
  visit(doc, {
    Alias(_key, node) {
      if (isAlias(node) && node.range) {
        const pos = lc.linePos(node.range[0]);
        found = { path: pathAt(doc, node.range[0]), line: pos.line, col: pos.col };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found ?? { path: '(document)', line: 1, col: 1 };
}

/**
 * Parses and validates a scenario from YAML text. Throws ScenarioError naming the file, each
 * field path and its line. Checks beyond the schema: known skills, skills with item generators,
 * probe days inside the horizon.
 */
export function parseScenario(text: string, file = 'scenario.yaml'): Scenario {
  if (text.length > MAX_SCENARIO_BYTES) throw new ScenarioError(file, [{ path: '(file)', message: `the file is ${text.length} characters long; a scenario is at most ${MAX_SCENARIO_BYTES}`, line: 1, col: 1 }], true);
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ScenarioError(
      file,
      doc.errors.slice(0, MAX_ISSUES).map((e) => {
        const pos = lc.linePos(e.pos[0]);
        // A second document (a `---` or `...` line) is not part of the scenario: said at the document, not at the field before it.
        if (e.code === 'MULTIPLE_DOCS') return { path: '(document)', message: 'YAML: a scenario is one YAML document, but a second one starts here (after a "---" or "..." line); remove the line and what follows it, or put each scenario in a file of its own', line: pos.line, col: pos.col };
        const what = e.code === 'DUPLICATE_KEY' ? 'this key is given twice (map keys must be unique)' : (e.message.split('\n')[0] ?? e.message);
        return { path: pathAt(doc, e.pos[0]), message: `YAML: ${what}`, line: pos.line, col: pos.col };
      }),
      true,
    );
  }
  // A key that is a list or a map (`? [a, b]: 1`) has no field name: refused where it is (it would be stringified silently).
  let complexKey: { path: string; line: number; col: number } | null = null;
  visit(doc, {
    Pair(_key, pair) {
      if (pair.key !== null && isNode(pair.key) && !isScalar(pair.key) && !isAlias(pair.key)) {
        const at = pair.key.range ? pair.key.range[0] : 0;
        const pos = lc.linePos(at);
        complexKey = { path: pathAt(doc, at), line: pos.line, col: pos.col };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (complexKey) throw new ScenarioError(file, [{ ...(complexKey as { path: string; line: number; col: number }), message: 'YAML: a key must be a plain name, not a list or a map' }], true);
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: MAX_SCENARIO_ALIASES });
  } catch (e) {
    // The yaml library stops an alias that would expand too far ("resource exhaustion"), and one without its anchor: say where.
    const msg = e instanceof Error ? e.message : String(e);
    const bomb = /excessive alias count/i.test(msg);
    throw new ScenarioError(file, [{ ...firstAlias(doc, lc), message: bomb ? `YAML: aliases expand to too many nodes (more than ${MAX_SCENARIO_ALIASES} alias uses; an "alias bomb"?): ${msg}` : `YAML: ${msg}` }], true);
  }
  const data: unknown = applyPersonaPreset(js);
  const res = ScenarioSchema.safeParse(data);
  if (!res.success) {
    throw new ScenarioError(
      file,
      res.error.issues.flatMap((iss) => schemaIssues(doc, lc, iss)).slice(0, MAX_ISSUES),
    );
  }
  const s = res.data;
  const extra: ScenarioIssue[] = [];
  s.course.skills.forEach((id, i) => {
    const path = ['course', 'skills', i];
    if (!skillInfo(id)) extra.push({ path: formatPath(path), message: `unknown skill id ${id} (ASSISTments 2009 skills are 1..110)`, ...locate(doc, lc, path) });
    else if (!GENERATORS.has(id)) extra.push({ path: formatPath(path), message: `skill ${id} (${skillInfo(id)!.name}) has no item generator yet`, ...locate(doc, lc, path) });
  });
  if (!isTracerName(s.learner.tracer)) {
    extra.push({ path: 'learner.tracer', message: `unknown tracer "${s.learner.tracer}" (tracers: ${TRACER_NAMES.join(', ')})`, ...locate(doc, lc, ['learner', 'tracer']) });
  }
  if (new Set(s.course.skills).size !== s.course.skills.length) extra.push({ path: 'course.skills', message: 'a skill is listed twice', ...locate(doc, lc, ['course', 'skills']) });
  if (Array.isArray(s.probes.days)) {
    s.probes.days.forEach((d, i) => {
      const path = ['probes', 'days', i];
      if (d > s.horizonDays) extra.push({ path: formatPath(path), message: `probe day ${d} is after the last day (${s.horizonDays})`, ...locate(doc, lc, path) });
    });
  }
  extra.push(...workIssues(s, doc, lc));
  if (extra.length) throw new ScenarioError(file, extra);
  // What run needs: the item bank of the scenario's seed can be built (a generator's questions at a
  // level can run out before the course's counts are met). Banks are cached, so the run reuses it.
  const shortage = bankShortage(s);
  if (shortage) {
    const field = shortage.phase === 'probes' ? 'probesPerSkill' : 'itemsPerLevel';
    const given = doc.getIn(['course', field], true) !== undefined;
    const path = given ? ['course', field] : ['course', 'skills', s.course.skills.indexOf(shortage.skill)];
    throw new ScenarioError(file, [{ path: formatPath(path), message: `${shortage.message} (the bank of seed ${s.seed}, as run builds it)`, ...locate(doc, lc, path) }]);
  }
  return s;
}

/** A zod issue as located issues; an unknown key is placed at its own line (zod names only the map holding it). */
function schemaIssues(doc: Document, lc: LineCounter, iss: z.core.$ZodIssue): ScenarioIssue[] {
  if (iss.code === 'unrecognized_keys') {
    return iss.keys.map((k) => {
      const at = keyPosition(doc, lc, iss.path, k);
      // An empty key (`? ` with nothing after it) is shown as "" so that the path still names it.
      const shown = k === '' ? '""' : k.length > 80 ? `${k.slice(0, 80)}…` : k;
      return { path: formatPath([...iss.path, shown]), message: `unknown field "${shown}" (unknown fields are errors)`, ...(at ?? locate(doc, lc, iss.path)) };
    });
  }
  return [{ path: formatPath(iss.path) || '(document)', message: iss.message, ...locate(doc, lc, iss.path) }];
}

/** The line and column of a key of the map at `path` (found by its text, so "__proto__" and "constructor" too). */
function keyPosition(doc: Document, lc: LineCounter, path: readonly PropertyKey[], key: string): { line: number; col: number } | null {
  const node = path.length ? doc.getIn(path as unknown[], true) : doc.contents;
  if (!isMap(node)) return null;
  for (const pair of node.items) {
    if (isScalar(pair.key) && String(pair.key.value) === key && pair.key.range) {
      const pos = lc.linePos(pair.key.range[0]);
      return { line: pos.line, col: pos.col };
    }
  }
  return null;
}

/**
 * The work a scenario asks for, bounded (docs/scenario-format.md, "Limits"): blocks of one weekday
 * may not overlap, scheduled minutes per day and over the horizon and the bank's size are capped;
 * and the probes come after the day's work (at or after the end of every block), so that "the
 * probe after day d" measures day d.
 */
function workIssues(s: Scenario, doc: Document, lc: LineCounter): ScenarioIssue[] {
  const out: ScenarioIssue[] = [];
  const L = SCENARIO_LIMITS;
  // A block ends at its minutes or just before midnight (the learner's session is cut there).
  const span = (b: Scenario['schedule']['blocks'][number]) => {
    const start = parseHhmm(b.start);
    return { start, end: Math.min(start + b.minutes, MINUTES_PER_DAY - 2) };
  };
  const blocks = s.schedule.blocks.map((b, i) => ({ i, ...span(b), days: b.days }));
  const perDay = new Map<string, number>();
  for (const wd of WEEKDAYS) {
    const today = blocks.filter((b) => b.days.includes(wd)).sort((a, b) => a.start - b.start || a.i - b.i);
    let minutes = 0;
    for (let k = 0; k < today.length; k++) {
      const b = today[k]!;
      minutes += b.end - b.start;
      const before = today.slice(0, k).find((o) => o.end > b.start);
      if (before && out.length < MAX_ISSUES) {
        const later = Math.max(before.i, b.i);
        const path = ['schedule', 'blocks', later, 'start'];
        const other = later === b.i ? before : b;
        const msg = `this block overlaps schedule.blocks[${other.i}] on ${wd} (${s.schedule.blocks[other.i]!.start} for ${s.schedule.blocks[other.i]!.minutes} minutes); blocks of one day may not overlap`;
        if (!out.some((o) => o.path === formatPath(path))) out.push({ path: formatPath(path), message: msg, ...locate(doc, lc, path) });
      }
    }
    perDay.set(wd, minutes);
  }
  const busiest = WEEKDAYS.reduce((a, b) => (perDay.get(b)! > perDay.get(a)! ? b : a));
  if (perDay.get(busiest)! > L.minutesPerDay) {
    out.push({ path: 'schedule.blocks', message: `${perDay.get(busiest)} minutes are scheduled on ${busiest}; a day has at most ${L.minutesPerDay}`, ...locate(doc, lc, ['schedule', 'blocks']) });
  }
  let total = 0;
  for (let d = 0; d < s.horizonDays; d++) total += perDay.get(WEEKDAYS[d % 7]!)!;
  if (total > L.scheduledMinutes) {
    const path = doc.getIn(['horizonDays'], true) !== undefined ? ['horizonDays'] : ['schedule', 'blocks'];
    out.push({ path: formatPath(path), message: `the schedule asks for ${total} minutes over ${s.horizonDays} days; a scenario has at most ${L.scheduledMinutes} (fewer days or shorter blocks)`, ...locate(doc, lc, path) });
  }
  const items = s.course.skills.length * (3 * s.course.itemsPerLevel + s.course.probesPerSkill);
  if (items > L.bankItems) {
    const path = ['course', 'itemsPerLevel'];
    out.push({ path: formatPath(path), message: `the item bank would hold ${items} items (${s.course.skills.length} skills × (3 levels × ${s.course.itemsPerLevel} + ${s.course.probesPerSkill} probes)); a scenario has at most ${L.bankItems}`, ...locate(doc, lc, path) });
  }
  const probing = s.probes.days === 'all' || s.probes.days.length > 0;
  const last = blocks.reduce((a, b) => (b.end > a.end ? b : a));
  if (probing && parseHhmm(s.probes.time) < last.end) {
    const path = ['probes', 'time'];
    const hhmm = `${String(Math.floor(last.end / 60)).padStart(2, '0')}:${String(last.end % 60).padStart(2, '0')}`;
    out.push({ path: formatPath(path), message: `the probes at ${s.probes.time} would come before the day's work ends (schedule.blocks[${last.i}] ends at ${hhmm}), so a probe would not measure its day; use ${hhmm} or later`, ...locate(doc, lc, path) });
  }
  return out;
}

/** The item bank's shortage for the scenario's own seed, or null when it builds. */
function bankShortage(s: Scenario): ItemBankShortage | null {
  try {
    buildItemBank({ skills: s.course.skills, itemsPerLevel: s.course.itemsPerLevel, probesPerSkill: s.course.probesPerSkill }, new Rng(s.seed).fork('bank'));
    return null;
  } catch (e) {
    if (e instanceof ItemBankShortage) return e;
    throw e;
  }
}
