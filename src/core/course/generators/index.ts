import type { ItemGenerator } from '../types';
import { addSubIntegers, mulDivIntegers } from './integers';
import { equationTwoSteps, orderOfOperations, percentOf } from './expressions';

/** Item generators by dataset skill id. Add a generator here to make a skill teachable. */
export const GENERATORS: ReadonlyMap<number, ItemGenerator> = new Map(
  [addSubIntegers, mulDivIntegers, orderOfOperations, equationTwoSteps, percentOf].map((g) => [g.skillId, g]),
);
