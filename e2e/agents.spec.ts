/**
 * Journey: external agents in the workbench. Two HTTP agents (the repo's example agent under two
 * names, served by this test, allowing the page's origin) beside the planner × 1 library scenario
 * × 2 seeds, on BKT for 3 days: the page asks each agent who it is, runs the benchmark, and the
 * results show each agent as a harness ("http:<name>") on the base model it reports. Then the Lab
 * runs one agent, and an MCP agent's series of runs (serve-mcp --scenarios, the example MCP client)
 * imports into the Benchmark view, where it is the harness "mcp:<agent>".
 */
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { Server } from 'node:http';
import { exampleAgent, serveAgent } from '../examples/http-agent/agent';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runClient } from '../examples/mcp-client/client';
import { benchmarkTutors } from './bench-form';

const servers: Server[] = [];
let urls: string[] = [];
/** The last day each agent was woken on, per run id (what the page POSTed). */
const lastDay: Map<string, number>[] = [new Map(), new Map()];
const watched = (i: number, agent: ReturnType<typeof exampleAgent>): ReturnType<typeof exampleAgent> => (body) => {
  if (body.type === 'wake') lastDay[i]!.set(body.run_id, Math.max(lastDay[i]!.get(body.run_id) ?? 0, body.wake.day));
  return agent(body);
};
test.beforeAll(async () => {
  const a = await serveAgent(watched(0, exampleAgent({ model: 'tiny-1' })), 0);
  const b = await serveAgent(watched(1, exampleAgent({ name: 'other-agent', version: '0.3', model: 'tiny-1' })), 0);
  servers.push(a.server, b.server);
  urls = [a.url, b.url];
});
test.afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); })));
});

test('two HTTP agents and the planner: each agent introduces itself, the benchmark runs, and the agents are harnesses in the model × harness table', async ({ page }) => {
  await page.goto('/#lab');
  await page.getByRole('link', { name: 'Benchmark' }).click();
  await benchmarkTutors(page, ['planner']);
  for (const [i, url] of urls.entries()) {
    await page.getByRole('button', { name: 'Add an external agent (HTTP)' }).click();
    const row = page.getByRole('group', { name: `External agent ${i + 1}` });
    await row.getByLabel('Agent URL').fill(url);
    await row.getByRole('button', { name: 'Ask the agent' }).click();
    await expect(row.getByTestId('agent-hello')).toHaveText(i === 0 ? 'The agent says: example-http-tutor 1.0.0, model tiny-1' : 'The agent says: other-agent 0.3, model tiny-1');
    await expect(row.getByLabel('Name')).toHaveValue(i === 0 ? 'example-http-tutor' : 'other-agent');
  }
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByLabel('Days', { exact: true }).fill('3');
  await page.getByLabel('Seeds', { exact: true }).fill('1,2');
  await page.locator('input[data-scenario="confused-productive--after-school"]').check();
  await page.getByRole('checkbox', { name: /Include the no-tutor control/ }).uncheck(); // the tutors alone (the control: e2e/value-added.spec.ts)
  await expect(page.getByRole('button', { name: 'Start benchmark (6 runs)' })).toBeEnabled();
  await page.getByRole('button', { name: /Start benchmark/ }).click();
  await expect(page.getByTestId('bench-progress')).toHaveText('Done: 6 runs', { timeout: 90_000 });
  expect(await page.getByRole('alert').allTextContents()).toEqual([]);
  // The page POSTed each agent's two runs through to day 3.
  expect([...lastDay[0]!.entries()].sort()).toEqual([['confused-productive--after-school__http-example-http-tutor-tiny-1__s1', 3], ['confused-productive--after-school__http-example-http-tutor-tiny-1__s2', 3]]);
  expect([...lastDay[1]!.values()]).toEqual([3, 3]);

  const results = page.locator('section[aria-labelledby="results-title"]');
  await expect(results.locator('table[data-table="axes-by-tutor"] tbody tr')).toHaveCount(3);
  await expect(results.locator('table[data-table="axes-by-tutor"]')).toContainText('http/example-http-tutor/tiny-1');
  await expect(results.locator('table[data-table="axes-by-tutor"]')).toContainText('http/other-agent/tiny-1');
  const mh = results.locator('table[data-table="model-by-harness"]');
  await expect(mh.locator('thead')).toContainText('http:example-http-tutor');
  await expect(mh.locator('thead')).toContainText('http:other-agent');
  await expect(mh.locator('tbody tr')).toHaveCount(1);
  await expect(mh.locator('tbody tr').first()).toContainText('tiny-1');
  await expect(mh.locator('tbody tr').first()).toContainText('(n=2)');
  // The agent rows (with their hellos) and the results pass the accessibility checks.
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('the Lab runs an HTTP agent; an MCP agent\'s series (serve-mcp --scenarios) imports into the Benchmark view as a harness on its model', async ({ page }) => {
  // An MCP agent tutors a series of two runs through serve-mcp over stdio (the example client).
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-e2e-mcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/cli/main.ts', 'serve-mcp', '--scenarios', 'scenarios/confused-productive--after-school.yaml', '--seeds', '1,2', '--horizon', '3', '--tracer', 'bkt', '--out', dir, '--quiet'],
    cwd: process.cwd(),
    stderr: 'pipe',
  });
  const stats = await runClient(transport, { model: 'tiny-1' });
  expect(stats.runs).toEqual(['confused-productive--after-school__mcp-example-mcp-tutor-tiny-1__s1', 'confused-productive--after-school__mcp-example-mcp-tutor-tiny-1__s2']);
  const files = Object.fromEntries(readdirSync(join(dir, 'traces')).map((f) => [`traces/${f}`, new Uint8Array(readFileSync(join(dir, 'traces', f)))]));
  const zip = join(dir, 'mcp-series.zip');
  writeFileSync(zip, zipSync(files));

  // The Lab: the http tutor, its URL, the agent's hello, a run to the end.
  await page.goto('/#lab');
  await page.getByLabel('Tutor', { exact: true }).selectOption('http');
  await page.getByLabel('Agent URL').fill(urls[1]!);
  await page.getByRole('button', { name: 'Ask the agent' }).click();
  await expect(page.getByTestId('agent-tutor-fields')).toContainText('The agent says: other-agent 0.3, model tiny-1');
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 90_000 });
  expect(lastDay[1]!.get('default-prealgebra-after-school__http-other-agent-tiny-1__s42')).toBe(30);
  const row = page.locator('tr[data-run-key^="default-prealgebra-after-school__http-other-agent-tiny-1__s42@"]');
  await expect(row).toContainText('http/other-agent/tiny-1');

  // The MCP series, imported: the agent is the harness "mcp:example-mcp-tutor" on tiny-1.
  await page.getByRole('link', { name: 'Benchmark' }).click();
  await page.getByTestId('import-benchmark').setInputFiles(zip);
  await expect(page.getByRole('status').filter({ hasText: 'Imported' })).toContainText('2 of 2 runs');
  const results = page.locator('section[aria-labelledby="results-title"]');
  await expect(results.locator('table[data-table="axes-by-tutor"]')).toContainText('mcp/example-mcp-tutor/tiny-1');
  const mh = results.locator('table[data-table="model-by-harness"]');
  await expect(mh.locator('thead')).toContainText('mcp:example-mcp-tutor');
  await expect(mh.locator('tbody tr').first()).toContainText('(n=2)');
});

test('a broken agent set-up that still scores is said in the Lab: every call fails, and the run shows its set-up warnings', async ({ page }, info) => {
  // An agent that writes its arguments under a field send_message does not have: every call is INVALID_ARGS, the run reaches its horizon.
  const hello = exampleAgent({ name: 'broken-agent', version: '0.1', model: 'tiny-1' });
  const broken = await serveAgent((body) => (body.type === 'hello' ? hello(body) : body.type === 'wake' ? { calls: [{ name: 'send_message', args: { message: 'Try again.' } }], end: true } : { calls: [], end: true }), 0);
  servers.push(broken.server);
  await page.goto('/#lab');
  await page.getByLabel('Tutor', { exact: true }).selectOption('http');
  await page.getByLabel('Agent URL').fill(broken.url);
  await page.getByRole('button', { name: 'Ask the agent' }).click();
  await expect(page.getByTestId('agent-tutor-fields')).toContainText('The agent says: broken-agent 0.1, model tiny-1');
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 90_000 });
  const warnings = page.getByTestId('run-warnings');
  await expect(warnings).toContainText('Set-up warnings: these scores may measure a broken set-up, not the tutor.');
  await expect(warnings.locator('li')).toHaveCount(2);
  await expect(warnings.locator('li').nth(0)).toContainText(/NO_VALID_ACTION the tutor made no valid action in \d+ turns \(not even stay_silent\): all \d+ tool calls failed, most often INVALID_ARGS/);
  await expect(warnings.locator('li').nth(1)).toContainText('TOOL_CALLS_FAILING');
  for (const [w, h, name] of [[1280, 900, 'desktop'], [820, 1100, 'tablet'], [390, 844, 'phone']] as const) {
    await page.setViewportSize({ width: w, height: h });
    await warnings.scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath(`run-warnings-${name}.png`) });
    const box = await warnings.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(w);
  }
  const a11y = await new AxeBuilder({ page }).include('[data-testid="run-warnings"]').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => v.id)).toEqual([]);
});
