/**
 * Affect: the persona's frustration and how tutor messages reach it. Deterministic: a tutor
 * message counts as encouragement when it matches one of the fixed patterns below (praise of the
 * learner's work, effort or progress, or a "keep going" line). The patterns are versioned: a
 * change alters runs, so bump the version and say so in docs/personas.md.
 */
export const ENCOURAGEMENT_VERSION = 1;

export const ENCOURAGEMENT_PATTERNS: readonly RegExp[] = [
  /\b(?:well done|good job|great job|nice job|nice work|good work|great work|great effort|good effort|good try|nice try|good thinking|great thinking)\b/i,
  /\b(?:excellent|awesome|fantastic|brilliant|impressive|proud of you)\b/i,
  /\b(?:that's|that is|you're|you are|exactly) (?:right|correct)\b/i,
  /\b(?:you can do (?:it|this)|keep (?:going|trying|it up|at it)|don't give up|do not give up|you've got this|you got this|almost there|you're getting (?:there|better|it))\b/i,
  /\b(?:great|good|nice) (?:progress|start|step|question)\b/i,
];

/** True when a tutor message encourages or praises the learner. */
export function isEncouraging(text: string): boolean {
  return ENCOURAGEMENT_PATTERNS.some((re) => re.test(text));
}

/** Frustration at or above this level switches help requests to the persona's `whenFrustrated` templates. */
export const FRUSTRATED_AT = 0.5;

export const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);
