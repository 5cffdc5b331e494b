import { describe, it } from 'vitest';
import { addSubIntegers, mulDivIntegers } from './integers';
import { equationTwoSteps, orderOfOperations } from './expressions';
import { type Oracle, plain, runOracles } from './harness.test-util';
import { evaluate, parseExpr, variables } from '../expr';

const math = (s: string) => /(?:What is|Evaluate) (.+?)[?.]$/.exec(s)![1]!;
const ORACLES: Record<number, Oracle> = {
  68: (it) => evaluate(parseExpr(math(plain(it))), new Map()),
  70: (it) => evaluate(parseExpr(math(plain(it))), new Map()),
  86: (it) => evaluate(parseExpr(math(plain(it))), new Map()),
  87: (it) => {
    const [l, r] = plain(it).split(': ')[1]!.split('=');
    const e = parseExpr(`${l} - (${r})`);
    const v = [...variables(e)][0]!;
    const f = (x: number) => evaluate(e, new Map([[v, x]]));
    return -f(0) / (f(1) - f(0));
  },
};

describe('integer and expression generators', () => {
  it('answers agree with an independent computation', () => runOracles([addSubIntegers, mulDivIntegers, orderOfOperations, equationTwoSteps], ORACLES));
});
