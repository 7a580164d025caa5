/** Server time of every request of the web app, at the two sizes in turn. */
import { BUDGET } from './budgets';
import { signIn, type Portal } from './portal';
import { count, size } from './report';
import { measureScale, type ServerTime } from './scale';
import { accountOf, type Volume } from './seed';
import type { BenchRun } from './settings';

export async function scaleRows({ settings, report }: BenchRun, portal: Portal) {
  const { small, large } = settings.seed.measured;
  const describe = (v: Volume) =>
    `${size(v.consents)} = ${count(v.consents)} consents and ${count(v.orders)} orders`;
  report.startSection(
    `server time, p50 of sequential requests, the two sizes in turn (${describe(small)}; ${describe(large)})`,
  );
  const sessions = [
    await signIn(portal, accountOf('small')),
    await signIn(portal, accountOf('large')),
  ];
  const measured = await measureScale(portal.url, sessions, settings.scale);
  const shown = (time: ServerTime & { kind: 'measured' }) => `median of ${time.requests}`;
  for (const {
    name,
    times: [smallTime, largeTime],
  } of measured) {
    const row = (label: string, time: ServerTime | undefined, max?: number) => {
      if (time?.kind === 'measured') {
        report.number(
          label,
          time.p50Ms,
          'ms',
          1,
          max === undefined ? undefined : { max },
          shown(time),
        );
      } else {
        report.error(label, time?.kind === 'failed' ? time.reason : 'not measured');
      }
    };
    row(`${name}, ${size(small.consents)}`, smallTime);
    row(`${name}, ${size(large.consents)}`, largeTime, BUDGET.maxServerTimeMs);
    if (smallTime?.kind === 'measured' && largeTime?.kind === 'measured') {
      report.number(
        `${name}, ${size(large.consents)} ÷ ${size(small.consents)}`,
        largeTime.p50Ms / smallTime.p50Ms,
        '×',
        1,
        { max: BUDGET.maxGrowth },
      );
    }
  }
}
