/**
 * The LLM settings' Test button when the browser cannot reach a provider: a server that answers
 * without CORS headers gets the CORS message with the fixes, a port where nothing listens gets
 * "Nothing is listening", and a server with CORS headers answers; each shown beside the button.
 * The servers are started here: a plain node:http server that sends OpenAI-shaped replies with no
 * Access-Control-* headers, and the mock server (CORS open).
 */
import { test, expect, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startMockOpenAi, type MockServer } from '../src/testing/mock-openai-server';

let noCors: Server;
let noCorsUrl: string;
let closedUrl: string;
let withCors: MockServer;
let noCorsHits = 0;

/** A port that was free a moment ago and is closed now (nothing listens on it). */
async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test.beforeAll(async () => {
  noCors = createServer((req, res) => {
    noCorsHits++;
    req.resume();
    req.on('end', () => {
      // No Access-Control-* headers at all, like Ollama without OLLAMA_ORIGINS.
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'OK' } }] }));
    });
  });
  await new Promise<void>((r) => noCors.listen(0, '127.0.0.1', r));
  noCorsUrl = `http://127.0.0.1:${(noCors.address() as AddressInfo).port}/v1`;
  closedUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  withCors = await startMockOpenAi();
});
test.afterAll(async () => {
  noCors.closeAllConnections();
  await new Promise<void>((r) => noCors.close(() => r()));
  await withCors.close();
});

async function addProvider(page: Page, name: string, url: string) {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Base URL', { exact: true }).fill(url);
  await page.getByRole('button', { name: 'Save provider' }).click();
  await expect(page.locator(`tr[data-provider="${name}"]`)).toBeVisible();
}

async function runTest(page: Page, provider: string) {
  const section = page.getByRole('heading', { name: 'Test a model' }).locator('..');
  await section.getByLabel('Provider').selectOption(provider);
  await section.getByLabel('Model').fill('some-model');
  await section.getByRole('button', { name: 'Send a test message' }).click();
  await expect(section.getByRole('button', { name: 'Send a test message' })).toBeEnabled({ timeout: 20_000 });
}

test('the Test button tells a CORS block from nothing listening, beside the button', async ({ page }) => {
  await page.goto('/#settings');
  await addProvider(page, 'nocors', noCorsUrl);
  await addProvider(page, 'closed', closedUrl);
  await addProvider(page, 'open', withCors.url);
  const origin = new URL(page.url()).origin;
  const result = page.getByTestId('test-result');
  await expect(result).toHaveAttribute('aria-live', 'polite');

  await runTest(page, 'nocors');
  await expect(result).toHaveAttribute('data-kind', 'cors');
  await expect(result).toContainText(`Blocked by CORS: the server at ${noCorsUrl.replace(/\/v1$/, '')} answers`);
  await expect(result).toContainText(`OLLAMA_ORIGINS=${origin} ollama serve`);
  await expect(result).toContainText(`--cors-origins ${origin}`);
  await expect(result).toContainText('Enable CORS');
  await expect(result).toContainText('--allowed-origins');
  expect(noCorsHits).toBeGreaterThan(0); // the server was really asked (the block is the browser's)
  // Beside the button, in the Test area: not the page-wide error at the bottom.
  await expect(page.getByRole('alert')).toHaveCount(0);
  const btn = await page.getByRole('button', { name: 'Send a test message' }).boundingBox();
  const box = await result.boundingBox();
  expect(btn && box && Math.abs(box.y - btn.y) < 60).toBe(true);
  await page.screenshot({ path: 'test-results/llm-test-cors.png', fullPage: true });

  await runTest(page, 'closed');
  await expect(result).toHaveAttribute('data-kind', 'not-listening');
  await expect(result).toContainText(`Nothing is listening at ${closedUrl.replace(/\/v1$/, '')}`);
  await expect(result).not.toContainText('CORS');

  await runTest(page, 'open');
  await expect(result).toHaveAttribute('data-kind', 'ok');
  await expect(result).toContainText('open/some-model answered: "ok"');
});
