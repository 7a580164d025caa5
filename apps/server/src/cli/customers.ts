import { randomBytes } from 'node:crypto';
import readline from 'node:readline';
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '@portal/contract';
import type { AppDeps } from '../deps';
import { isCommonPassword } from '../lib/common-passwords';
import { hashPassword } from '../lib/password';
import { operatorSendResetLink, operatorSetPassword } from '../modules/auth/passwords';
import { findCustomerByEmail, insertCustomer, listCustomers } from '../modules/users/service';
import type { Customer } from '../modules/users/schema';
import { asCli, CliError, parseOptions, requireOption, type CliCommand } from './command';

/** What a command needs from the terminal; tests pass their own. */
export interface CliIo {
  print(line: string): void;
  /** True when a person can be asked (stdin is a terminal). */
  interactive: boolean;
  promptSecret(question: string): Promise<string>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MOBILE = /^[6-9]\d{9}$/;
// GSTIN: state code, PAN, entity number, 'Z', check character
const GSTIN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const TALLY_SERIAL = /^\d{6,12}$/;

const ProfileOptionsSchema = z.object({
  email: z.string().trim().toLowerCase().regex(EMAIL, '--email must be an e-mail address'),
  mobile: z.string().trim().regex(MOBILE, '--mobile must be a 10-digit Indian mobile number'),
  gstNo: z
    .string()
    .trim()
    .toUpperCase()
    .regex(GSTIN, '--gst-no must be a 15-character GST number such as 27AAPFU0939F1ZV'),
  tallySerialNo: z.string().trim().regex(TALLY_SERIAL, '--tally-serial must be 6 to 12 digits'),
  companyName: z.string().trim().min(1, '--company must not be empty').max(200),
  customerType: z.string().trim().min(1, '--customer-type must not be empty').max(100),
  category: z.string().trim().max(100).optional(),
  tallyVersion: z.string().trim().max(100).optional(),
});

const passwordProblem = (password: string) =>
  password.length < MIN_PASSWORD_LENGTH
    ? `the password must be at least ${MIN_PASSWORD_LENGTH} characters long`
    : password.length > 256
      ? 'the password must be at most 256 characters long'
      : isCommonPassword(password)
        ? 'the password is one of the most common and easily guessed: choose another'
        : undefined;

export const generatePassword = () => randomBytes(12).toString('base64url');

/** The password from --password, a prompt, or generated; `generated` says whether to print it. */
async function choosePassword(given: string | undefined, io: CliIo) {
  if (given !== undefined) {
    const problem = passwordProblem(given);
    if (problem) throw new CliError(`--password: ${problem}`);
    return { password: given, generated: false };
  }
  if (!io.interactive) return { password: generatePassword(), generated: true };
  const password = await io.promptSecret('Password (leave empty to generate one): ');
  if (password === '') return { password: generatePassword(), generated: true };
  const problem = passwordProblem(password);
  if (problem) throw new CliError(problem);
  if ((await io.promptSecret('Repeat the password: ')) !== password) {
    throw new CliError('the two passwords differ');
  }
  return { password, generated: false };
}

const createOptions = {
  email: { type: 'string' },
  mobile: { type: 'string' },
  'gst-no': { type: 'string' },
  'tally-serial': { type: 'string' },
  company: { type: 'string' },
  'customer-type': { type: 'string', default: 'Customer' },
  category: { type: 'string' },
  'tally-version': { type: 'string' },
  password: { type: 'string' },
} as const;

export async function createCustomerCommand(
  deps: Pick<AppDeps, 'db'>,
  args: string[],
  io: CliIo,
): Promise<Customer> {
  const values = parseOptions(args, createOptions);
  const parsed = ProfileOptionsSchema.safeParse({
    email: requireOption(values, 'email'),
    mobile: requireOption(values, 'mobile'),
    gstNo: requireOption(values, 'gst-no'),
    tallySerialNo: requireOption(values, 'tally-serial'),
    companyName: requireOption(values, 'company'),
    customerType: values['customer-type'],
    category: values.category,
    tallyVersion: values['tally-version'],
  });
  if (!parsed.success) throw new CliError(parsed.error.issues[0]!.message);
  const profile = parsed.data;
  if (await findCustomerByEmail(deps.db, profile.email)) {
    throw new CliError(`a customer with e-mail ${profile.email} already exists`);
  }
  const { password, generated } = await choosePassword(values.password, io);
  const passwordHash = await hashPassword(password);
  const customer = await asCli(() =>
    insertCustomer(deps.db, {
      ...profile,
      category: profile.category ?? null,
      tallyVersion: profile.tallyVersion ?? null,
      passwordHash,
    }),
  );
  io.print(`Created customer ${customer.email} (${customer.companyName}), id ${customer.id}.`);
  if (generated) io.print(`Password (shown once, pass it on securely): ${password}`);
  return customer;
}

export async function listCustomersCommand(deps: Pick<AppDeps, 'db'>, args: string[], io: CliIo) {
  parseOptions(args, {});
  const rows = await listCustomers(deps.db);
  if (rows.length === 0) {
    io.print('No customers yet. Add one with customers:create.');
    return;
  }
  const table = [
    ['E-mail', 'Company', 'Mobile', 'GST number', 'Tally serial', 'Created'],
    ...rows.map((c) => [
      c.email,
      c.companyName,
      c.mobile,
      c.gstNo,
      c.tallySerialNo,
      c.createdAt.toLocaleDateString('en-IN', { day: '2-digit', month: 'short', year: 'numeric' }),
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table)
    io.print(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
}

export async function resetPasswordCommand(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'queue' | 'consents'>,
  args: string[],
  io: CliIo,
) {
  const values = parseOptions(args, {
    email: { type: 'string' },
    'send-link': { type: 'boolean', default: false },
    password: { type: 'string' },
  });
  const email = requireOption(values, 'email');
  if (values['send-link'] && values.password !== undefined) {
    throw new CliError('use either --send-link or --password, not both');
  }
  const customer = await findCustomerByEmail(deps.db, email);
  if (!customer) throw new CliError(`no customer has the e-mail ${email.trim().toLowerCase()}`);
  if (values['send-link']) {
    await operatorSendResetLink(deps, customer);
    io.print(`Reset link sent to ${customer.email}; the customer's sessions have ended.`);
    return;
  }
  const { password, generated } = await choosePassword(values.password, {
    ...io,
    interactive: false,
  });
  await operatorSetPassword(deps, customer, password);
  io.print(`Password of ${customer.email} reset; the customer's sessions have ended.`);
  if (generated) io.print(`New password (shown once, pass it on securely): ${password}`);
}

/** Reads a line without echoing it. */
function promptSecret(question: string): Promise<string> {
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
  });
  let muted = false;
  // readline has no public switch for echo; replacing its writer is the usual way
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s) => {
    if (!muted) process.stdout.write(s);
  };
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

const terminal: CliIo = {
  print: (line) => console.log(line),
  interactive: Boolean(process.stdin.isTTY),
  promptSecret,
};

export const customerCommands: Record<string, CliCommand> = {
  'customers:create': {
    summary:
      'Add a customer: --email --mobile --gst-no --tally-serial --company [--customer-type --category --tally-version --password]',
    run: async (args, deps) => {
      await createCustomerCommand(deps, args, terminal);
    },
  },
  'customers:list': {
    summary: 'List every customer',
    run: (args, deps) => listCustomersCommand(deps, args, terminal),
  },
  'customers:reset-password': {
    summary:
      "Reset a customer's password: --email, then --send-link, --password, or nothing for a generated one; ends their sessions",
    run: (args, deps) => resetPasswordCommand(deps, args, terminal),
  },
};
