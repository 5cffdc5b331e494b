/**
 * Journey (issue 35): a provider that returns tool calls as text in the content (vLLM without a
 * tool parser, Ollama on a model whose template has no tools). In the page, as in the CLI, the
 * calls are read and run, and the Lab shows the run's set-up warning TEXT_TOOL_CALLS.
 */
import { test, expect } from '@playwright/test';
import { startMockOpenAi, chat, type MockServer, type WireRequest } from '../src/testing/mock-openai-server';

let srv: MockServer;
test.beforeAll(async () => {
  srv = await startMockOpenAi((body: WireRequest) => {
    const last = body.messages[body.messages.length - 1]!;
    return last.role === 'tool' ? chat('Done.') : chat('<tool_call>\n{"name": "send_message", "arguments": {"text": "What is the first step?"}}\n</tool_call>');
  });
});
test.afterAll(async () => {
  await srv.close();
});

test('tool calls written as text are run in the page, and the run says its provider is not parsing tool calls', async ({ page }) => {
  await page.goto('/#settings');
  await page.getByLabel('Name', { exact: true }).fill('vllm');
  await page.getByLabel('Base URL', { exact: true }).fill(srv.url);
  await page.getByRole('button', { name: 'Save provider' }).click();
  await expect(page.getByRole('status')).toContainText('Saved provider vllm');

  await page.getByRole('link', { name: 'Lab' }).click();
  await page.locator('input[type="file"][accept=".yaml,.yml"]').setInputFiles('scenarios/fixtures/mini-3day.yaml');
  await expect(page.getByRole('status')).toContainText('Loaded scenario mini-3day');
  await page.getByLabel('Tutor', { exact: true }).selectOption('llm');
  await page.getByLabel('Harness').selectOption('reactive');
  await page.getByLabel('Provider', { exact: true }).selectOption('vllm');
  await page.getByLabel('Model', { exact: true }).fill('qwen');
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 60_000 });

  const warnings = page.getByTestId('run-warnings');
  await expect(warnings.locator('li')).toHaveCount(1);
  await expect(warnings).toContainText(/TEXT_TOOL_CALLS \d+ of \d+ tutor model replies \(vllm\/qwen\) returned their tool calls as text in the content \(hermes\)/);
  // The calls were run: the learner got the tutor's messages (leakage is n/a when the tutor sent none;
  // "What is the first step?" engages nothing of a help request, so responsiveness stays 0).
  const axes = page.getByRole('table', { name: 'Axis scores' });
  await expect(axes.locator('[data-axis="leakage"]')).toHaveText(/^\d+(\.\d)?%$/);
});
