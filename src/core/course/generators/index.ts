import type { ItemGenerator } from '../types';
import { addSubIntegers, mulDivIntegers } from './integers';
import { equationTwoSteps, orderOfOperations, percentOf } from './expressions';
import { STATISTICS } from './statistics';
import { DATA_DISPLAYS } from './data-displays';
import { PROBABILITY } from './probability';
import { NUMBER_SENSE } from './number-sense';
import { FRACTIONS_DECIMALS } from './fractions-decimals';
import { RATIOS_PERCENTS } from './ratios-percents';
import { GEOMETRY } from './geometry';
import { MEASUREMENT } from './measurement';
import { ALGEBRA } from './algebra';
import { LINEAR_FUNCTIONS } from './linear-functions';

/** Item generators by dataset skill id. Add a generator here to make a skill teachable. */
export const GENERATORS: ReadonlyMap<number, ItemGenerator> = new Map(
  [addSubIntegers, mulDivIntegers, orderOfOperations, equationTwoSteps, percentOf, ...STATISTICS, ...DATA_DISPLAYS, ...PROBABILITY, ...NUMBER_SENSE, ...FRACTIONS_DECIMALS, ...RATIOS_PERCENTS, ...GEOMETRY, ...MEASUREMENT, ...ALGEBRA, ...LINEAR_FUNCTIONS].map((g) => [g.skillId, g]),
);
