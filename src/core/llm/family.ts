/** Model family from a model name, for the judge panel's "different families" check (configurable; this is a guess). */
const FAMILIES: [RegExp, string][] = [
  [/^(gpt|o\d|chatgpt|text-davinci)/i, 'openai'],
  [/gemini|gemma/i, 'google'],
  [/claude/i, 'anthropic'],
  [/llama|meta-/i, 'meta'],
  [/qwen|qwq/i, 'qwen'],
  [/mistral|mixtral|ministral|codestral/i, 'mistral'],
  [/kimi|moonshot/i, 'moonshot'],
  [/solar/i, 'upstage'],
  [/deepseek/i, 'deepseek'],
  [/phi-?\d/i, 'microsoft'],
  [/grok/i, 'xai'],
  [/command|aya/i, 'cohere'],
];

export function inferFamily(model: string): string | null {
  const base = model.split('/').pop() ?? model;
  for (const [re, fam] of FAMILIES) if (re.test(base)) return fam;
  return null;
}
