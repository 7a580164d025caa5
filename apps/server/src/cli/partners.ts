import { createPartner, listPartners, revokePartner } from '../modules/partners/service';
import { asCli, parseOptions, requireOption, type CliCommand } from './command';

const when = (date: Date | null) => (date ? date.toLocaleString('en-IN') : '-');

export const partnerCommands: Record<string, CliCommand> = {
  'partners:create': {
    summary:
      'Register a partner and print its API key once: --name "Tally Bank Connector" [--id PTN-…]',
    async run(args, deps) {
      const values = parseOptions(args, { name: { type: 'string' }, id: { type: 'string' } });
      const name = requireOption(values, 'name');
      const { partner, apiKey } = await asCli(() =>
        createPartner(deps.db, deps.clock, { name, partnerId: values.id }),
      );
      console.log(
        [
          `Partner created: ${partner.name}`,
          `  partner id: ${partner.partnerId}`,
          `  API key:    ${apiKey}`,
          'The key is shown only now and is stored hashed. Send it in the X-Api-Key header.',
        ].join('\n'),
      );
    },
  },
  'partners:list': {
    summary: 'List partners with their key prefix, last use and whether the key is revoked',
    async run(args, deps) {
      parseOptions(args, {});
      const rows = await listPartners(deps.db);
      if (rows.length === 0) return console.log('No partners.');
      for (const row of rows) {
        console.log(
          [
            row.partnerId,
            row.name,
            `key ${row.apiKeyPrefix}…`,
            `created ${when(row.createdAt)}`,
            `last used ${when(row.lastUsedAt)}`,
            row.revokedAt ? `REVOKED ${when(row.revokedAt)}` : 'active',
          ].join('  |  '),
        );
      }
    },
  },
  'partners:revoke': {
    summary: "Refuse a partner's API key from now on: --id PTN-…",
    async run(args, deps) {
      const values = parseOptions(args, { id: { type: 'string' } });
      const partner = await asCli(() =>
        revokePartner(deps.db, deps.clock, requireOption(values, 'id')),
      );
      console.log(
        `Key of ${partner.partnerId} (${partner.name}) revoked at ${when(partner.revokedAt)}.`,
      );
    },
  },
};
