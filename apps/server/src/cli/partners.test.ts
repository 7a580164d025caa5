import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { listPartners } from '../modules/partners/service';
import { CliError } from './command';
import { partnerCommands } from './partners';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

async function run(name: string, args: string[]) {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
  await partnerCommands[name]!.run(args, t.deps);
  vi.restoreAllMocks();
  return lines.join('\n');
}

describe('partners CLI', () => {
  it('prints a new key once, lists partners without it, and revokes it', async () => {
    const created = await run('partners:create', ['--name', 'LedgerSync', '--id', 'PTN-LEDGER1']);
    const key = created.match(/API key:\s+(ptk_\S+)/)?.[1];
    expect(key).toBeDefined();

    const listed = await run('partners:list', []);
    expect(listed).toContain('PTN-LEDGER1');
    expect(listed).not.toContain(key!);

    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/partner/consents/none',
      headers: { 'x-api-key': key! },
    });
    expect(ok.statusCode).toBe(404);

    await run('partners:revoke', ['--id', 'PTN-LEDGER1']);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/partner/consents/none',
      headers: { 'x-api-key': key! },
    });
    expect(refused.statusCode).toBe(401);
    expect(
      (await listPartners(t.deps.db)).find((p) => p.partnerId === 'PTN-LEDGER1')?.revokedAt,
    ).not.toBeNull();
  });

  it('refuses a second partner with the same id and a missing name', async () => {
    await run('partners:create', ['--name', 'One', '--id', 'PTN-TWICE']);
    await expect(run('partners:create', ['--name', 'Two', '--id', 'PTN-TWICE'])).rejects.toThrow(
      CliError,
    );
    await expect(run('partners:create', [])).rejects.toThrow('--name is required');
  });
});
