import { LineCounter, parseDocument, isAlias, isMap, isNode, isScalar, isSeq, visit, type Document } from 'yaml';
import { z } from 'zod';
import { ScenarioSchema, TRACER_NAMES, type Scenario } from './schema';
import { SimError } from '../errors';
import { skillInfo } from '../course/skills';
import { GENERATORS } from '../course/generators/index';
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
      res.error.issues.slice(0, MAX_ISSUES).map((iss: z.core.$ZodIssue) => ({ path: formatPath(iss.path) || '(document)', message: iss.message, ...locate(doc, lc, iss.path) })),
    );
  }
  const s = res.data;
  const extra: ScenarioIssue[] = [];
  s.course.skills.forEach((id, i) => {
    const path = ['course', 'skills', i];
    if (!skillInfo(id)) extra.push({ path: formatPath(path), message: `unknown skill id ${id} (ASSISTments 2009 skills are 1..110)`, ...locate(doc, lc, path) });
    else if (!GENERATORS.has(id)) extra.push({ path: formatPath(path), message: `skill ${id} (${skillInfo(id)!.name}) has no item generator yet`, ...locate(doc, lc, path) });
  });
  if (!(TRACER_NAMES as readonly string[]).includes(s.learner.tracer)) {
    extra.push({ path: 'learner.tracer', message: `unknown tracer "${s.learner.tracer}" (tracers: ${TRACER_NAMES.join(', ')})`, ...locate(doc, lc, ['learner', 'tracer']) });
  }
  if (new Set(s.course.skills).size !== s.course.skills.length) extra.push({ path: 'course.skills', message: 'a skill is listed twice', ...locate(doc, lc, ['course', 'skills']) });
  if (Array.isArray(s.probes.days)) {
    s.probes.days.forEach((d, i) => {
      const path = ['probes', 'days', i];
      if (d > s.horizonDays) extra.push({ path: formatPath(path), message: `probe day ${d} is after the last day (${s.horizonDays})`, ...locate(doc, lc, path) });
    });
  }
  if (extra.length) throw new ScenarioError(file, extra);
  return s;
}
