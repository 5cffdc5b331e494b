/**
 * The scripted OpenAI-compatible server with scripted LLM students (scripted-student.ts) in a
 * process of its own, for journeys whose runner cannot load the core (Playwright's loader):
 *
 *   node --import tsx src/testing/scripted-student-server.ts <scenario.yaml>[:seed] ...
 *
 * It answers attempts for the items of the scenarios' runs (each with its own seed, or the one
 * given), `policyReply` for everything else, prints its URL as the first line on stdout, and runs
 * until it is killed.
 */
import { readFileSync } from 'node:fs';
import { parseScenario, runRecord, type Item } from '../core/index';
import { startMockOpenAi } from './mock-openai-server';
import { itemsByStem, scriptedStudentHandler } from './scripted-student';

const args = process.argv.slice(2);
if (args.length === 0) throw new Error('usage: scripted-student-server.ts <scenario.yaml>[:seed] ...');
const items = new Map<string, Item[]>();
for (const a of args) {
  const [file, seed] = a.split(':') as [string, string | undefined];
  const scenario = parseScenario(readFileSync(file, 'utf8'), file);
  const record = runRecord({ scenario, tutor: { name: 'withholder', config: {} }, ...(seed !== undefined ? { seed: Number(seed) } : {}) });
  for (const [stem, its] of itemsByStem(record)) if (!items.has(stem)) items.set(stem, its);
}
const srv = await startMockOpenAi(scriptedStudentHandler(items));
process.stdout.write(`${srv.url}\n`);
