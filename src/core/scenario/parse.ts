import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { z } from 'zod';
import { ScenarioSchema, type Scenario } from './schema';
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
        issues.map((i) => `  ${file}:${i.line ?? '?'}:${i.col ?? '?'} ${i.path || '(root)'}: ${i.message}`).join('\n'),
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
  return {};
}

/**
 * Parses and validates a scenario from YAML text. Throws ScenarioError naming the file, each
 * field path and its line. Checks beyond the schema: known skills, skills with item generators,
 * probe days inside the horizon.
 */
export function parseScenario(text: string, file = 'scenario.yaml'): Scenario {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ScenarioError(
      file,
      doc.errors.map((e) => {
        const pos = lc.linePos(e.pos[0]);
        return { path: '', message: e.message.split('\n')[0] ?? e.message, line: pos.line, col: pos.col };
      }),
      true,
    );
  }
  const data: unknown = applyPersonaPreset(doc.toJS());
  const res = ScenarioSchema.safeParse(data);
  if (!res.success) {
    throw new ScenarioError(
      file,
      res.error.issues.map((iss: z.core.$ZodIssue) => ({ path: formatPath(iss.path), message: iss.message, ...locate(doc, lc, iss.path) })),
    );
  }
  const s = res.data;
  const extra: ScenarioIssue[] = [];
  s.course.skills.forEach((id, i) => {
    const path = ['course', 'skills', i];
    if (!skillInfo(id)) extra.push({ path: formatPath(path), message: `unknown skill id ${id} (ASSISTments 2009 skills are 1..110)`, ...locate(doc, lc, path) });
    else if (!GENERATORS.has(id)) extra.push({ path: formatPath(path), message: `skill ${id} (${skillInfo(id)!.name}) has no item generator yet`, ...locate(doc, lc, path) });
  });
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
