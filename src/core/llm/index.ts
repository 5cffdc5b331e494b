export * from './types';
export { extractJsonObject, parseJsonReply } from './json';
export { MockLlm, type MockReply, type MockScript } from './mock';
export { inferFamily } from './family';
export { hasTextToolCalls, parseTextToolCalls, type TextToolCalls, type TextToolFormat } from './text-tools';
export { toStrictSchema, fromStrictArgs, strictSchemaProblems } from './strict-schema';
