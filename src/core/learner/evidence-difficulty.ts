/**
 * Calibration of a tracer by the difficulty of the preceding evidence (measurement only; the
 * engine does not use it): `scripts/evidence-difficulty.ts`, docs/validity.md, "Easy items inflate
 * the AKT learner". Does a success on an easy question count for as much, in the tracer's
 * prediction for a harder question, as it does for real students? On teacher-forced held-out rows,
 * the script groups rows by the level of the solved attempts before them (`solvedStreakLevel`) and
 * fits P = σ(logit P_tracer + a_T − β_e·easier + β_h·harder) (`solvedGaps`, `fitLogistic`):
 * a_T absorbs the tracer's miscalibration by the question's own level T, β_e > 0 would mean that
 * easy successes are over-read, β_h > 0 that hard successes are under-read.
 */
import catalogue from '../data/assist2009-skills.json';

/** (skill, question) → bank level 1..3; a question at more than one level of its skill (the pooled skills) is left out. */
const LEVELS: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  const twice = new Set<string>();
  for (const s of catalogue.skills as { id: number; levels: { level: number; questions: number[] }[] }[]) {
    for (const l of s.levels) {
      for (const q of l.questions) {
        const key = `${s.id},${q}`;
        if (m.has(key) && m.get(key) !== l.level) twice.add(key);
        m.set(key, l.level);
      }
    }
  }
  for (const k of twice) m.delete(k);
  return m;
})();

/**
 * Bank level (1 = the easiest third of the skill's questions .. 3) of a data-set question of a
 * skill, as the item bank links items to questions (src/core/data/assist2009-skills.json); 0 when
 * the question has no level or more than one.
 */
export function questionLevel(skill: number, question: number): number {
  return LEVELS.get(`${skill},${question}`) ?? 0;
}

/** A student's rows as aligned columns (1-based ids; responses 0/1). */
export interface Rows {
  skills: readonly number[];
  questions: readonly number[];
  responses: readonly number[];
}

/** Indices of the last `n` rows before `t` on the skill of row t, most recent first. */
function previousOnSkill(r: Rows, t: number, n: number): number[] {
  const skill = r.skills[t];
  const out: number[] = [];
  for (let u = t - 1; u >= 0 && out.length < n; u--) if (r.skills[u] === skill) out.push(u);
  return out;
}

/**
 * The level E when the last k attempts on row t's skill before t were all solved, all at the same
 * known level E; 0 otherwise (fewer than k attempts, a miss, mixed or unknown levels).
 */
export function solvedStreakLevel(r: Rows, t: number, k: number): number {
  if (!(k >= 1)) throw new Error(`solvedStreakLevel: k must be ≥ 1 (got ${k})`);
  const prev = previousOnSkill(r, t, k);
  if (prev.length < k) return 0;
  const e = questionLevel(r.skills[t]!, r.questions[prev[0]!]!);
  if (e === 0) return 0;
  return prev.every((u) => r.responses[u] === 1 && questionLevel(r.skills[t]!, r.questions[u]!) === e) ? e : 0;
}

/**
 * The level E when the last k attempts on row t's skill before t were all at the same known level
 * E, solved or not; 0 otherwise. In ASSISTments skill builders the next question of a problem set
 * is drawn at random, so the level of the practice a student met is close to assigned at random.
 */
export function practiceLevel(r: Rows, t: number, k: number): number {
  if (!(k >= 1)) throw new Error(`practiceLevel: k must be ≥ 1 (got ${k})`);
  const prev = previousOnSkill(r, t, k);
  if (prev.length < k) return 0;
  const e = questionLevel(r.skills[t]!, r.questions[prev[0]!]!);
  if (e === 0) return 0;
  return prev.every((u) => questionLevel(r.skills[t]!, r.questions[u]!) === e) ? e : 0;
}

/**
 * Over the last `window` attempts on row t's skill before t that were solved and have a level:
 * `easier` = Σ max(0, T − E), `harder` = Σ max(0, E − T), T the level of row t's question (both 0
 * when it has none).
 */
export function solvedGaps(r: Rows, t: number, window: number): { easier: number; harder: number } {
  if (!(window >= 1)) throw new Error(`solvedGaps: window must be ≥ 1 (got ${window})`);
  const target = questionLevel(r.skills[t]!, r.questions[t]!);
  let easier = 0;
  let harder = 0;
  if (target === 0) return { easier, harder };
  for (const u of previousOnSkill(r, t, window)) {
    if (r.responses[u] !== 1) continue;
    const e = questionLevel(r.skills[t]!, r.questions[u]!);
    if (e === 0) continue;
    easier += Math.max(0, target - e);
    harder += Math.max(0, e - target);
  }
  return { easier, harder };
}

/**
 * Maximum-likelihood logistic regression with a fixed offset: P(y = 1) = σ(z + θ·f), by Newton's
 * method. Returns θ and its standard errors (inverse observed information). Throws when the
 * information matrix is singular (a feature that never varies) or Newton does not converge.
 */
export function fitLogistic(rows: readonly { z: number; y: number; f: readonly number[] }[], o: { iterations?: number } = {}): { theta: number[]; se: number[] } {
  if (rows.length === 0) throw new Error('fitLogistic: no rows');
  const n = rows[0]!.f.length;
  let theta = new Array<number>(n).fill(0);
  const info = () => {
    const g = new Array<number>(n).fill(0);
    const H = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (const r of rows) {
      if (r.f.length !== n) throw new Error(`fitLogistic: a row has ${r.f.length} features, expected ${n}`);
      let eta = r.z;
      for (let j = 0; j < n; j++) eta += theta[j]! * r.f[j]!;
      const q = 1 / (1 + Math.exp(-eta));
      for (let a = 0; a < n; a++) {
        g[a]! += (r.y - q) * r.f[a]!;
        for (let b = 0; b < n; b++) H[a]![b]! += q * (1 - q) * r.f[a]! * r.f[b]!;
      }
    }
    return { g, H };
  };
  for (let it = 0; it < (o.iterations ?? 50); it++) {
    const { g, H } = info();
    const step = solve(H, g);
    theta = theta.map((v, j) => v + step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-10) {
      const { H: H2 } = info();
      const se = theta.map((_, j) => Math.sqrt(solve(H2, theta.map((__, i) => (i === j ? 1 : 0)))[j]!));
      return { theta, se };
    }
  }
  throw new Error('fitLogistic: Newton did not converge');
}

/** Solves A x = b (Gauss–Jordan with partial pivoting); throws on a singular matrix. */
function solve(A: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    if (Math.abs(M[p]![c]!) < 1e-12) throw new Error('fitLogistic: singular information matrix (a feature never varies)');
    [M[c], M[p]] = [M[p]!, M[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / M[c]![c]!;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  return M.map((row, i) => row[n]! / row[i]!);
}
