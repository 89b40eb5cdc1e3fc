import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { runCli } from '../../src/cli/main.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Browser tests drive Debian's chromium package through playwright-core (no browser download). Where it is not
 * installed they are skipped, loudly: `.ci/run` installs it, so CI always runs them.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  process.stderr.write(
    `\n[console browser tests] SKIPPED: no Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.\n\n`,
  );

export const ADMIN = { email: 'ada@foundation.example', password: 'correct horse battery staple' };
export const VIEWER = { email: 'vic@foundation.example', password: 'viewer passphrase 2026' };

export interface ConsoleFixture {
  t: TestApp;
  base: string;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** The real app on a real socket, two operators created through the CLI, and a fresh Chromium profile. */
export async function startConsole(): Promise<ConsoleFixture> {
  const t = await startTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  for (const [who, role] of [
    [ADMIN, 'admin'],
    [VIEWER, 'viewer'],
  ] as const) {
    const code = await runCli(['operators', 'create', who.email, '--role', role, '--password-stdin'], {
      database: t.database,
      env: {},
      defaultOperator: () => 'test-setup',
      readStdin: async () => `${who.password}\n`,
      stdout: () => undefined,
      stderr: (text) => void process.stderr.write(text),
    });
    if (code !== 0) throw new Error(`operators create ${who.email} exited ${code}`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  return {
    t,
    base: `${address}/console`,
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      await t.close();
    },
  };
}

/** Signs in from a clean slate (no session cookie left by an earlier test). */
export async function signIn(page: Page, base: string, who: { email: string; password: string }) {
  await page.context().clearCookies();
  await page.goto(`${base}/login`);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
}
