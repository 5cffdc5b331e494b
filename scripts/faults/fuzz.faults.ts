/** Fuzzing campaigns at full size (the same properties as src/testing/fuzz.test.ts, thousands of cases). */
import { it } from 'vitest';
import { fuzzScenarios, fuzzToolArgs, fuzzTraces } from '../../src/testing/fuzz';
import { writeTallies } from './tally';

const N = Number(process.env.FAULTS_FUZZ_RUNS ?? 3000);

it(`fuzzing: scenario parser, trace reader, tool arguments (${N} cases each, seed 16)`, async () => {
  writeTallies('1-fuzz', [await fuzzScenarios(N, 16), await fuzzTraces(N, 16), await fuzzToolArgs(N, 16)]);
});
