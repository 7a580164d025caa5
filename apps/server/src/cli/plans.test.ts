import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { findPlan, toPlan } from '../modules/plans/service';
import { CliError } from './command';
import { planCommands } from './plans';
import { printedBy } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function run(name: string, args: string[]) {
  const { out } = await printedBy(() => planCommands[name]!.run(args, t.deps));
  return out;
}

describe('plans CLI', () => {
  it('creates, lists and retires a plan; a retired plan is no longer offered', async () => {
    const [created] = await run('plans:create', [
      '--name',
      'Team',
      '--type',
      'Multi',
      '--companies',
      '3',
      '--days',
      '90',
      '--amount',
      '2999.50',
    ]);
    const id = created!.match(/Plan created: (\S+) Team/)![1]!;
    const plan = await findPlan(t.deps.db, id);
    expect(plan!.retiredAt).toBeNull();
    expect(toPlan(plan!)).toMatchObject({
      planType: 'Multi',
      noOfCompany: 3,
      duration: 90,
      amount: 2999.5,
    });
    const listed = await run('plans:list', []);
    expect(listed.join('\n')).toContain(
      `${id}  Team  Multi  3 companies  90 days  ₹2,999.50  offered`,
    );

    expect(await run('plans:retire', ['--id', id])).toEqual([`Plan retired: ${id} Team`]);
    expect((await findPlan(t.deps.db, id))!.retiredAt).not.toBeNull();
    expect((await run('plans:list', [])).join('\n')).toMatch(new RegExp(`${id} .* retired `));
  });

  it('refuses bad options with one-line errors', async () => {
    const base = ['--name', 'X', '--type', 'Single', '--companies', '1', '--days', '30'];
    await expect(run('plans:create', [...base, '--amount', '10.005'])).rejects.toThrow(CliError);
    await expect(run('plans:create', [...base, '--amount', '0'])).rejects.toThrow(
      '--amount must be a positive amount in rupees with at most two decimals',
    );
    await expect(
      run('plans:create', [
        '--name',
        'X',
        '--type',
        'Team',
        '--companies',
        '1',
        '--days',
        '30',
        '--amount',
        '1',
      ]),
    ).rejects.toThrow('--type must be Single or Multi');
    await expect(
      run('plans:retire', ['--id', '00000000-0000-4000-8000-000000000000']),
    ).rejects.toThrow('Plan not found');
  });
});
