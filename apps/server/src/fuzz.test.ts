import { randomUUID } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import { sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hmacHex } from './adapters/payment-gateway';
import { createTestPartner } from './modules/consents/testing';
import { createTestApp } from './test/app';
import { authHeaders, createCustomer } from './test/customers';
import { serverSuiteRun } from './test/suite-run';

/**
 * Every route of the app, fuzzed: a valid request is spoilt in one to three places, so that each
 * input is bad by construction, and the app must answer 4xx and leave every table as it was.
 * The routes come from the app itself (its OpenAPI document, and its router for the routes the
 * document hides, the sandboxes', with the schemas they were registered with), so a new route
 * and its fields are fuzzed without anyone adding them here.
 *
 * The full walk runs once, on the suite's main database; beside a PostgreSQL run, PGlite walks
 * every route with fewer inputs, to show each one answers on the embedded database too.
 */

const RUNS = serverSuiteRun() === 'pglite-own' ? 50 : 1000;

/**
 * The schemas the routes were registered with, by `METHOD /path`: Fastify announces each instance
 * it makes on this channel, and every route then passes its onRoute hook.
 */
const routeSchemas = new Map<string, FastifySchema>();
const initialization = channel('fastify.initialization');
const recordRoutes = (message: unknown) =>
  (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeSchemas.set(`${method} ${route.url}`, route.schema ?? {});
    }
  });
initialization.subscribe(recordRoutes);
const t = await createTestApp();
initialization.unsubscribe(recordRoutes);
const customer = await createCustomer(t);
const partner = await createTestPartner(t);
afterAll(() => t.close());

// ---------------------------------------------------------------------------------------------
// The operations: the OpenAPI document, and the router for what the document does not show

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  /** The members of a record (`{}` takes anything). */
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  /** A discriminated union is written as oneOf; for what is made here, the same as anyOf. */
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: JsonSchema;
}

interface Operation {
  method: string;
  /** As the router knows it: `/api/users/:id`. */
  path: string;
  /** Shown in the OpenAPI document, with the schemas it validates. */
  documented: boolean;
  parameters: Parameter[];
  /** The JSON body's schema, when the operation takes one. */
  body?: JsonSchema;
  security: 'bearer' | 'partnerKey' | null;
  /** For a route the document hides: the zod schemas it was registered with, if any. */
  registered?: FastifySchema;
}

interface OpenApiOperation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  security?: Record<string, unknown>[];
}

const document = t.app.swagger() as unknown as {
  paths: Record<string, Record<string, OpenApiOperation>>;
};

const documented: Operation[] = Object.entries(document.paths).flatMap(([path, operations]) =>
  Object.entries(operations).map(([method, op]) => ({
    method: method.toUpperCase(),
    path: path.replace(/\{([^}]+)\}/g, ':$1'),
    documented: true,
    parameters: op.parameters ?? [],
    body: op.requestBody?.content['application/json']?.schema,
    security: (Object.keys(op.security?.[0] ?? {})[0] ?? null) as Operation['security'],
  })),
);

/** Every route the router holds, read from its printed tree (HEAD twins of GET left out). */
function routerRoutes(): { method: string; path: string }[] {
  const stack: string[] = [];
  const printed: { method: string; path: string }[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = line.match(/^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + match[2]!;
    stack.push(path);
    for (const method of (match[3] ?? '').split(', ').filter((m) => m && m !== 'HEAD')) {
      printed.push({ method, path });
    }
  }
  // the tree prints a wildcard under the nearest route, without the folders between them
  return printed.map(({ method, path }) => {
    if (!path.endsWith('*') || t.app.hasRoute({ method: method as 'GET', url: path })) {
      return { method, path };
    }
    const parent = path.slice(0, -1);
    const candidates = printed.flatMap((r) =>
      r.path.startsWith(parent)
        ? [...r.path.matchAll(/\//g)].map((slash) => `${r.path.slice(0, slash.index + 1)}*`)
        : [],
    );
    const url = candidates.find((c) => t.app.hasRoute({ method: method as 'GET', url: c }));
    return { method, path: url ?? path };
  });
}

/** A route's zod schema as JSON Schema, written as the OpenAPI document writes its inputs. */
const jsonSchemaOf = (schema: unknown): JsonSchema =>
  z.toJSONSchema(schema as z.ZodType, {
    io: 'input',
    target: 'openapi-3.0',
    unrepresentable: 'any',
  }) as JsonSchema;

/** A route the document hides, with the inputs its registered schemas describe. */
function hiddenOperation(r: { method: string; path: string }): Operation {
  const registered = routeSchemas.get(`${r.method} ${r.path}`);
  const params = registered?.params ? jsonSchemaOf(registered.params) : {};
  const query = registered?.querystring ? jsonSchemaOf(registered.querystring) : {};
  return {
    ...r,
    documented: false,
    parameters: [
      ...[...r.path.matchAll(/:(\w+)|(\*)/g)].map((m) => ({
        name: m[1] ?? '*',
        in: 'path' as const,
        required: true,
        schema: params.properties?.[m[1] ?? '*'] ?? {},
      })),
      ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({
        name,
        in: 'query' as const,
        required: query.required?.includes(name) ?? false,
        schema,
      })),
    ],
    body: registered?.body ? jsonSchemaOf(registered.body) : undefined,
    security: null,
    registered,
  };
}

const hidden: Operation[] = routerRoutes()
  .filter((r) => !documented.some((d) => d.method === r.method && d.path === r.path))
  .map(hiddenOperation);

const operations = [...documented, ...hidden];

// ---------------------------------------------------------------------------------------------
// Valid values, from the schemas

// the last four: a PIN code, a day (YYYY-MM-DD) and a financial year (2026-27) of the exports,
// and an address
const VALID_STRINGS = [
  'fuzz@example.test',
  'ReadBalances',
  'fuzz',
  'JVBERi0xLjcK',
  '560038',
  '2026-04-01',
  '2026-27',
  'https://fuzz.example.test/',
];

const optionsOf = (schema: JsonSchema) => schema.anyOf ?? schema.oneOf;

/**
 * A value the schema accepts; the request built of them must pass validation (checked).
 * `requiredOnly` leaves out the fields an object may go without.
 */
function validValue(schema: JsonSchema, name = '', requiredOnly = false): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const options = optionsOf(schema);
  if (options) return validValue(options[0]!, name, requiredOnly);
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([key]) => !requiredOnly || schema.required?.includes(key))
          .map(([key, child]) => [key, validValue(child, key, requiredOnly)]),
      );
    case 'array':
      return Array.from({ length: Math.max(schema.minItems ?? 1, 1) }, () =>
        validValue(schema.items ?? {}, name, requiredOnly),
      );
    case 'integer':
    case 'number':
      return Math.min(
        Math.max(schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1),
        schema.maximum ?? Infinity,
      );
    case 'boolean':
      return true;
    default:
      return validString(schema, name);
  }
}

function validString(schema: JsonSchema, name: string): string {
  if (schema.format === 'uuid' || /^(user)?id$/i.test(name)) return customer.id;
  if (schema.format === 'date-time') return '2026-06-01T10:00:00.000Z';
  const fits = (s: string) =>
    s.length >= (schema.minLength ?? 0) &&
    s.length <= (schema.maxLength ?? Infinity) &&
    (!schema.pattern || new RegExp(schema.pattern).test(s)) &&
    (schema.format !== 'email' || s.includes('@')) &&
    (schema.format !== 'uri' || URL.canParse(s)) &&
    (schema.format !== 'base64' || /^[A-Za-z0-9+/]+=*$/.test(s));
  const found = VALID_STRINGS.find(fits);
  if (!found) throw new Error(`no valid example for ${name}: ${JSON.stringify(schema)}`);
  return found;
}

/**
 * Where the generic example does not pass validation; each entry says why. The base check in
 * every test fails with the operation's name when another one is needed.
 */
const EXAMPLE_BODIES: Record<string, (body: Record<string, unknown>) => unknown> = {
  // exactly one of customerEmail and customerId names the customer
  'POST /api/partner/consents': ({ customerEmail: _, ...body }) => body,
  // a GSTIN with its check character, of the State chosen
  'PUT /api/billing-details': (body) => ({ ...body, gstin: '29AAACR5055K1Z3', stateCode: '29' }),
};

// ---------------------------------------------------------------------------------------------
// Bad values

/**
 * Text sent as it is, where JSON.stringify cannot write it (a deep value, a number past range)
 * or should not be printed in a report (a huge one).
 */
class Raw {
  constructor(
    readonly text: () => string,
    readonly label: string,
  ) {}
  [fc.toStringMethod]() {
    return `Raw(${this.label})`;
  }
}
const huge = (length: number) =>
  new Raw(() => JSON.stringify('x'.repeat(length)), `huge ${length}`);
const deep = (depth: number, as: 'array' | 'object') =>
  new Raw(
    () =>
      as === 'array'
        ? '['.repeat(depth) + '0' + ']'.repeat(depth)
        : '{"a":'.repeat(depth) + '0' + '}'.repeat(depth),
    `${as} ${depth} deep`,
  );

function jsonText(value: unknown): string {
  if (value instanceof Raw) return value.text();
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Control characters (C0, DEL, C1, NUL) and halves of a surrogate pair. */
const unsafeCharacter = fc.oneof(
  fc.constantFrom('\u0000', '\u0001', '\u0008', '\t', '\n', '\r', '\u001b', '\u001f'),
  fc.constantFrom('\u007f', '\u0080', '\u0085', '\u009f'),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
);

/** A text with at least one unsafe character somewhere in it. */
const unsafeText = (around = 'fuzz', characters = unsafeCharacter) =>
  fc.oneof(
    // inside a valid value, so that the unsafe character is all that is wrong with it
    fc
      .tuple(fc.nat({ max: around.length }), fc.array(characters, { minLength: 1, maxLength: 3 }))
      // kept apart, as a high and a low surrogate side by side would make a valid pair
      .map(([at, bad]) => around.slice(0, at) + bad.join('.') + around.slice(at)),
    fc
      .tuple(fc.string({ maxLength: 20 }), characters, fc.string({ maxLength: 20 }))
      .map(([before, bad, after]) => before + bad + after),
  );

/**
 * What a URL can carry of them: control characters. (A lone surrogate has no UTF-8 form; its
 * bytes are no text at all, and are left as they are or refused by the decoder.) Number()
 * reads past whitespace, so a query number gets the control characters that are not.
 */
const controlCharacter = unsafeCharacter.filter((c) => c < '\ud800');
const nonBlankControl = controlCharacter.filter((c) => c.trim() !== '');

const impossibleDateTime = fc.oneof(
  fc.constantFrom(
    '0000-01-01T00:00:00Z',
    '1969-12-31T23:59:59Z',
    '2024-02-30T10:00:00Z',
    '2023-02-29T10:00:00Z',
    '2024-04-31T10:00:00Z',
    '2024-13-45T99:99:99.999999Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T23:60:00Z',
    '2024-01-01T00:00:60Z',
    '2024-01-01T00:00:00+99:99',
    '+010000-01-01T00:00:00Z',
    '10000-01-01T00:00:00Z',
    '2024-01-01',
    'yesterday',
  ),
  fc
    .record({
      year: fc.integer({ min: 0, max: 9999 }),
      month: fc.integer({ min: 0, max: 99 }),
      day: fc.integer({ min: 0, max: 99 }),
      hour: fc.integer({ min: 24, max: 99 }),
    })
    .map(
      ({ year, month, day, hour }) =>
        `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${hour}:00:00Z`,
    ),
  fc.integer({ min: 0, max: 1969 }).map((y) => `${String(y).padStart(4, '0')}-06-15T12:00:00Z`),
);

/** Strings the schema refuses. */
function badStrings(
  schema: JsonSchema,
  unsafe = unsafeText(String(validValue(schema))),
): fc.Arbitrary<unknown>[] {
  const bad: fc.Arbitrary<unknown>[] = [unsafe];
  if (schema.maxLength !== undefined) {
    const over = schema.maxLength + 1;
    bad.push(
      fc.integer({ min: over, max: over + 50 }).map((n) => 'y'.repeat(n)),
      fc.integer({ min: Math.max(over, 10_000), max: 200_000 }).map(huge),
    );
  }
  if (schema.minLength) bad.push(fc.constant(''));
  if (schema.enum || schema.const !== undefined) {
    bad.push(fc.constantFrom('unknown', 'PENDING', ' Pending', 'null'));
  }
  if (schema.format === 'date-time') bad.push(impossibleDateTime);
  if (schema.format === 'email') bad.push(fc.constantFrom('a@b', 'not an address', '@b.co'));
  if (schema.format === 'uuid') bad.push(fc.constantFrom('not-a-uuid', '..%2F', '1234'));
  return bad;
}

const allowsType = (schema: JsonSchema, value: unknown): boolean => {
  const options = optionsOf(schema);
  if (options) return options.some((option) => allowsType(option, value));
  if (!schema.type) return true;
  if (value === null) return false;
  if (Array.isArray(value)) return schema.type === 'array';
  if (value instanceof Raw) return false;
  if (typeof value === 'object') return schema.type === 'object';
  if (typeof value === 'number') {
    return schema.type === 'number' || (schema.type === 'integer' && Number.isInteger(value));
  }
  return schema.type === typeof value;
};

/** JSON values of a type the schema does not take: null, arrays, objects, deep nesting… */
const wrongTypes = (schema: JsonSchema) =>
  fc
    .oneof(
      fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 'text', '', [], {}, ['fuzz'], {
        evil: 1,
      }),
      fc.integer({ min: 100, max: 20_000 }).map((n) => deep(n, 'array')),
      fc.integer({ min: 100, max: 20_000 }).map((n) => deep(n, 'object')),
    )
    .filter((value) => !allowsType(schema, value));

/** JSON values the schema refuses. */
function badJson(schema: JsonSchema): fc.Arbitrary<unknown> {
  const bad = [wrongTypes(schema)];
  if (schema.type === 'string') bad.push(...badStrings(schema));
  if (schema.type === 'integer' || schema.type === 'number') {
    const low = schema.minimum ?? schema.exclusiveMinimum;
    if (low !== undefined) bad.push(fc.constantFrom(low - 1, low - 1e6));
    if (schema.exclusiveMinimum !== undefined) bad.push(fc.constant(schema.exclusiveMinimum));
    if (schema.maximum !== undefined) bad.push(fc.constantFrom(schema.maximum + 1, 1e300));
    if (schema.type === 'integer') bad.push(fc.constantFrom(1.5, 0.1));
    bad.push(fc.constant(new Raw(() => '1e400', '1e400')));
  }
  if (schema.type === 'array' && schema.maxItems !== undefined) {
    const over = schema.maxItems + 1;
    bad.push(fc.constant(Array.from({ length: over }, () => validValue(schema.items ?? {}))));
  }
  if (schema.type === 'array' && schema.minItems) bad.push(fc.constant([]));
  if (schema.type === 'array' && schema.items?.type) {
    bad.push(badJson(schema.items).map((item) => [item]));
  }
  return fc.oneof(...bad);
}

/** Query values (strings on the wire) the schema refuses. */
function badQuery(schema: JsonSchema): fc.Arbitrary<string[]> {
  const one = (arb: fc.Arbitrary<unknown>) =>
    arb.map((v) => [v instanceof Raw ? v.text() : String(v)]);
  // a repeated key arrives as an array, which no query field takes
  const repeated = fc.constant<string[]>(['1', '2']);
  if (schema.type === 'integer' || schema.type === 'number') {
    const bad: string[] = ['abc', 'NaN', 'Infinity', '-Infinity', '1e999', '1,2', '0x'];
    if (schema.minimum !== undefined) bad.push(String(schema.minimum - 1), '-99999999');
    if (schema.maximum !== undefined) bad.push(String(schema.maximum + 1), '1e15');
    if (schema.type === 'integer') bad.push('1.5', '2.000001');
    return fc.oneof(
      fc.constantFrom(...bad).map((v) => [v]),
      one(unsafeText(String(validValue(schema)), nonBlankControl)),
      repeated,
    );
  }
  return fc.oneof(
    ...badStrings(schema, unsafeText(String(validValue(schema)), controlCharacter)).map(one),
    repeated,
  );
}

/** Path ids: NUL and control characters, traversal, broken UTF-8, and very long ids. */
const badPathId = fc.oneof(
  unsafeText('fuzz').map(encodeLoosely),
  fc.constantFrom(
    '%00',
    'a%00b',
    '..%2F',
    '..%2F..%2F..%2Fetc%2Fpasswd',
    '%2E%2E%2F%2E%2E%2F',
    '..%5C..%5C',
    '%2F',
    '%FF',
    '%C0%AF',
    '%ED%A0%80',
    '%E0%80%AF',
  ),
  fc.integer({ min: 101, max: 5000 }).map((n) => 'i'.repeat(n)),
);

/** Percent-encodes text, writing a lone surrogate as the three bytes UTF-8 forbids for it. */
function encodeLoosely(text: string): string {
  return text.replace(/(\p{Cs})|\P{Cs}+/gu, (run, lone: string | undefined) => {
    if (!lone) return encodeURIComponent(run);
    const unit = lone.charCodeAt(0);
    return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
      .map((byte) => `%${byte.toString(16).toUpperCase()}`)
      .join('');
  });
}

/** Whole bodies no JSON route takes. */
const asIs = (body: string) => new Raw(() => body, JSON.stringify(body));
const badBodyText: fc.Arbitrary<Raw> = fc.oneof(
  fc
    .constantFrom('null', '[]', '"text"', '42', 'true', '{', '{"a":', '', '\u0000', '\ufeff{}')
    .map(asIs),
  fc.integer({ min: 1000, max: 100_000 }).map((n) => deep(n, 'array')),
  fc.integer({ min: 1000, max: 100_000 }).map((n) => deep(n, 'object')),
  fc.constant(new Raw(() => 'x'.repeat(1024 * 1024 + 1), 'past the body limit')),
  fc.string({ unit: 'binary', maxLength: 50 }).map((s) => asIs(`[${JSON.stringify(s)}]`)),
);

const WRONG_CONTENT_TYPES = [
  'application/xml',
  'multipart/form-data; boundary=fuzz',
  'application/octet-stream',
  'image/png',
  'text/html',
  'application/jsonx',
];

// ---------------------------------------------------------------------------------------------
// Requests, and what spoils them

interface Draft {
  params: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  /** The JSON body (may hold Raw values), or a body as text, or none. */
  body: { json: unknown } | { text: string } | null;
  contentType: string | null;
  /** The credential's headers; replaced by a bad credential. */
  credential: Record<string, string>;
}

type Spoil =
  | { at: 'param'; name: string; raw: string }
  /** `opaque`: a value no schema can describe, which the handler checks (a cursor). */
  | { at: 'query'; name: string; values: string[] | null; opaque?: true }
  | { at: 'header'; name: string; value: string }
  | { at: 'body'; path: string[]; value: unknown }
  | { at: 'drop'; path: string[] }
  | { at: 'bodyText'; text: Raw }
  | { at: 'contentType'; value: string | null }
  | { at: 'credential'; headers: Record<string, string> };

/** Bad input that a schema describes: it must be refused before the handler runs. */
const breaksContract = (spoil: Spoil) =>
  spoil.at !== 'param' && spoil.at !== 'credential' && !(spoil.at === 'query' && spoil.opaque);

/** Where a spoil lands; the body's fields and the body as a whole count as one place. */
const placeOf = (spoil: Spoil) =>
  spoil.at === 'body' || spoil.at === 'drop' || spoil.at === 'bodyText'
    ? 'body'
    : 'name' in spoil
      ? `${spoil.at} ${spoil.name}`
      : spoil.at;

function setAt(value: unknown, path: string[], by: unknown): unknown {
  if (path.length === 0) return by;
  const [head, ...rest] = path;
  const copy = { ...(value as Record<string, unknown>) };
  copy[head!] = setAt(copy[head!], rest, by);
  return copy;
}

function dropAt(value: unknown, path: string[]): unknown {
  const copy = { ...(value as Record<string, unknown>) };
  if (path.length === 1) delete copy[path[0]!];
  else copy[path[0]!] = dropAt(copy[path[0]!], path.slice(1));
  return copy;
}

function spoilt(draft: Draft, spoils: Spoil[]): Draft {
  const next: Draft = { ...draft, params: { ...draft.params }, headers: { ...draft.headers } };
  for (const spoil of spoils) {
    if (spoil.at === 'param') next.params[spoil.name] = spoil.raw;
    else if (spoil.at === 'query') {
      next.query = next.query.filter(([name]) => name !== spoil.name);
      for (const value of spoil.values ?? []) next.query.push([spoil.name, value]);
    } else if (spoil.at === 'header') next.headers[spoil.name] = spoil.value;
    else if (spoil.at === 'body' && next.body && 'json' in next.body) {
      next.body = { json: setAt(next.body.json, spoil.path, spoil.value) };
    } else if (spoil.at === 'drop' && next.body && 'json' in next.body) {
      next.body = { json: dropAt(next.body.json, spoil.path) };
    } else if (spoil.at === 'bodyText') next.body = { text: spoil.text.text() };
    else if (spoil.at === 'contentType') next.contentType = spoil.value;
    else if (spoil.at === 'credential') next.credential = spoil.headers;
  }
  return next;
}

/** Every place of a JSON body's schema that can be spoilt, with the spoils for it. */
function bodySpoils(schema: JsonSchema, path: string[] = []): fc.Arbitrary<Spoil>[] {
  const here = badJson(schema).map((value): Spoil => ({ at: 'body', path, value }));
  // the fields of an object, or of the object that one of several shapes is
  const object =
    schema.type === 'object' ? schema : optionsOf(schema)?.find((o) => o.type === 'object');
  const inside = Object.entries(object?.properties ?? {}).flatMap(([key, child]) => [
    ...bodySpoils(child, [...path, key]),
    ...(object?.required?.includes(key)
      ? [fc.constant<Spoil>({ at: 'drop', path: [...path, key] })]
      : []),
  ]);
  // a record's members: a bad value, or a key that is not plain text
  const member = object?.additionalProperties;
  const members =
    typeof member === 'object' && member.type
      ? [
          badJson(member).map((value): Spoil => ({ at: 'body', path: [...path, 'fuzz'], value })),
          unsafeText('fuzz').map((key): Spoil => ({
            at: 'body',
            path: [...path, key],
            value: validValue(member),
          })),
        ]
      : [];
  return [here, ...inside, ...members];
}

interface Credential {
  /** The headers that let a request through to the handler. */
  headers: (bodyText: string) => Record<string, string>;
  /** Credentials that must be refused. */
  bad: fc.Arbitrary<Record<string, string>>;
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const junkToken = fc.oneof(
  unsafeText('token'),
  fc.string({ maxLength: 60 }),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => 't'.repeat(n)),
);

const bearer = (token: string): Credential => ({
  headers: () => ({ authorization: `Bearer ${token}` }),
  bad: fc.oneof(
    fc.constant({}),
    fc.constantFrom(
      { authorization: 'Bearer' },
      { authorization: `Bearer ${token}x` },
      { authorization: `Basic ${token}` },
      // alg none, naming the customer: a forged token
      {
        authorization: `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ customerId: customer.id, sessionId: randomUUID() })).toString('base64url')}.`,
      },
    ),
    junkToken.map((junk) => ({ authorization: `Bearer ${junk}` })),
  ),
});

const partnerKey: Credential = {
  headers: () => ({ 'x-api-key': partner.apiKey }),
  bad: fc.oneof(
    fc.constant({}),
    fc.constantFrom({ 'x-api-key': '' }, { 'x-api-key': `${partner.apiKey}x` }),
    junkToken.map((junk) => ({ 'x-api-key': `ptk_${junk}` })),
    junkToken.map((junk) => ({ 'x-api-key': junk })),
  ),
};

const basicAuth = (user: string, password: string): Credential => ({
  headers: () => ({ authorization: basic(user, password) }),
  bad: fc.oneof(
    fc.constant({}),
    fc.constantFrom(
      { authorization: basic(user, `${password}x`) },
      { authorization: basic(`${user}x`, password) },
      { authorization: 'Basic' },
      { authorization: 'Basic %%%' },
    ),
    junkToken.map((junk) => ({ authorization: `Basic ${junk}` })),
  ),
});

/** The gateway signs its webhooks over the exact body with the webhook secret. */
const WEBHOOK_SIGNATURE = 'x-razorpay-signature';
const webhookSignature: Credential = {
  headers: (bodyText) => ({
    [WEBHOOK_SIGNATURE]: hmacHex(t.deps.payments.settings.webhookSecret, bodyText),
    'x-razorpay-event-id': `evt_${randomUUID()}`,
  }),
  bad: fc.oneof(
    fc.constant({}),
    fc.constant({ [WEBHOOK_SIGNATURE]: hmacHex('not-the-secret', 'body') }),
    fc.constant({ [WEBHOOK_SIGNATURE]: hmacHex(t.deps.payments.settings.keySecret, 'body') }),
    fc.stringMatching(/^[0-9a-f]{0,64}$/).map((hex) => ({ [WEBHOOK_SIGNATURE]: hex })),
  ),
};

/** Credentials a route of the router (not the document) may ask for, tried in turn. */
function sandboxCredentials(): Credential[] {
  const { keyId, keySecret } = t.deps.payments.settings;
  const bank = t.deps.consents.sandboxBank;
  return [
    basicAuth(keyId, keySecret),
    ...(bank ? [basicAuth(bank.clientId, bank.clientSecret)] : []),
  ];
}

/** Opaque values a schema cannot describe: a cursor of the right shape with a date that is not. */
const OPAQUE_QUERY: Record<string, fc.Arbitrary<string>> = {
  cursor: impossibleDateTime.map((at) =>
    Buffer.from(`${at}|${randomUUID()}`, 'utf8').toString('base64url'),
  ),
};

interface Noise {
  query?: [string, string][];
  headers?: Record<string, string>;
  cookie?: [string, string];
}

/** Junk where nothing reads it: it must neither break a request nor mend a bad one. */
const noise: fc.Arbitrary<Noise> = fc.record(
  {
    query: fc.array(fc.tuple(fc.constantFrom('x', 'fuzz', '__proto__', '%00'), unsafeText()), {
      maxLength: 2,
    }),
    headers: fc.dictionary(
      fc.constantFrom('x-fuzz', 'accept-language', 'x-request-id', 'if-none-match'),
      unsafeText(),
      { maxKeys: 2 },
    ),
    cookie: fc.option(fc.tuple(fc.constantFrom('__Host-refresh', 'session', 'x'), unsafeText()), {
      nil: undefined,
    }),
  },
  { requiredKeys: [] },
);

// ---------------------------------------------------------------------------------------------
// Sending, and the database

function send(op: Operation, draft: Draft, extra: Noise = {}) {
  const path = op.path.replace(/:(\w+)|\*/g, (whole, name: string | undefined) => {
    return draft.params[name ?? '*'] ?? whole;
  });
  const query = [...draft.query, ...(extra.query ?? []).map(([k, v]) => [k, encodeLoosely(v)])]
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const bodyText =
    draft.body === null
      ? undefined
      : 'json' in draft.body
        ? jsonText(draft.body.json)
        : draft.body.text;
  const headers: Record<string, string> = {
    ...extra.headers,
    ...(extra.cookie ? { cookie: `${extra.cookie[0]}=${extra.cookie[1]}` } : {}),
    ...draft.credential,
    ...draft.headers,
    ...(draft.contentType ? { 'content-type': draft.contentType } : {}),
  };
  return t.app.inject({
    method: op.method as 'GET',
    url: query ? `${path}?${query}` : path,
    headers,
    ...(bodyText === undefined ? {} : { payload: bodyText }),
  });
}

/** Rows of a raw query; both drivers answer with `rows`. */
async function query<Row>(statement: SQL): Promise<Row[]> {
  return ((await t.deps.db.execute(statement)) as unknown as { rows: Row[] }).rows;
}

/** A digest of every table's rows: equal digests, unchanged tables. */
async function tableDigests(): Promise<Record<string, string>> {
  const tables = await query<{ name: string }>(sql`
    select quote_ident(table_schema) || '.' || quote_ident(table_name) as name
    from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
    order by 1`);
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await query<{ digest: string }>(
      sql.raw(
        `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${name} t`,
      ),
    );
    digests[name] = row!.digest;
  }
  return digests;
}

// ---------------------------------------------------------------------------------------------
// The property, operation by operation

interface Prepared {
  base: Draft;
  credential: Credential | null;
  spoils: fc.Arbitrary<Spoil>[];
  /**
   * A body for a route of the router that registered no schema for it, whose body may be input
   * or may be ignored (a form's button): sent along with the spoils, never counted as one.
   */
  junk: fc.Arbitrary<Spoil[]>;
  /** A route of the router that refused every credential the test knows. */
  locked: boolean;
}

const methodTakesBody = (method: string) => ['POST', 'PUT', 'PATCH'].includes(method);

async function prepare(op: Operation): Promise<Prepared> {
  const key = `${op.method} ${op.path}`;
  const params: Record<string, string> = {};
  const query: [string, string][] = [];
  // a route the document hides is sent what its schema requires: a registered schema may bound
  // more than its JSON Schema says (a pipe's limits), and its ids name nothing
  for (const p of op.parameters) {
    if (p.in === 'header') continue;
    if (p.in === 'path') {
      const value = op.documented ? String(validValue(p.schema, p.name)) : 'fuzz';
      params[p.name] = encodeURIComponent(value);
    } else if (!OPAQUE_QUERY[p.name] && (op.documented || p.required)) {
      // an opaque one (a cursor) has no valid value to make up
      query.push([p.name, encodeURIComponent(String(validValue(p.schema, p.name)))]);
    }
  }
  let body: Draft['body'] = null;
  if (op.body) {
    const generic = validValue(op.body, '', !op.documented) as Record<string, unknown>;
    body = { json: EXAMPLE_BODIES[key]?.(generic) ?? generic };
  } else if (!op.documented && methodTakesBody(op.method)) body = { json: {} };
  const base: Draft = {
    params,
    query,
    headers: {},
    body,
    contentType: body ? 'application/json' : null,
    credential: {},
  };

  let credential: Credential | null = null;
  let locked = false;
  if (op.parameters.some((p) => p.in === 'header' && p.name === WEBHOOK_SIGNATURE)) {
    credential = webhookSignature;
  } else if (op.security === 'bearer') {
    // a session of its own, so that no other route's requests can end it
    const session = await authHeaders(t, customer.id);
    credential = bearer(session.authorization.slice('Bearer '.length));
  } else if (op.security === 'partnerKey') credential = partnerKey;
  else if (!op.documented) {
    // with a body its schema refuses, so that trying credentials changes nothing
    const probe: Draft = op.body ? { ...base, body: { json: null } } : base;
    if ((await send(op, probe)).statusCode === 401) {
      for (const candidate of sandboxCredentials()) {
        const res = await send(op, { ...probe, credential: candidate.headers('') });
        if (res.statusCode !== 401) credential = candidate;
      }
      locked = credential === null;
    }
  }

  const spoils: fc.Arbitrary<Spoil>[] = [];
  for (const p of op.parameters) {
    if (p.in === 'path') {
      spoils.push(badPathId.map((raw): Spoil => ({ at: 'param', name: p.name, raw })));
    }
    if (p.in === 'query') {
      spoils.push(
        badQuery(p.schema).map((values): Spoil => ({
          at: 'query',
          name: p.name,
          values: values.map(encodeLoosely),
        })),
      );
      const opaque = OPAQUE_QUERY[p.name];
      if (opaque) {
        spoils.push(
          opaque.map((value): Spoil => ({
            at: 'query',
            name: p.name,
            values: [value],
            opaque: true,
          })),
        );
      }
      if (p.required) spoils.push(fc.constant<Spoil>({ at: 'query', name: p.name, values: null }));
    }
    if (p.in === 'header' && p.name !== WEBHOOK_SIGNATURE) {
      spoils.push(
        fc.oneof(...badStrings(p.schema)).map((v): Spoil => ({
          at: 'header',
          name: p.name,
          value: v instanceof Raw ? 'h'.repeat(20_000) : String(v),
        })),
      );
    }
  }
  if (op.body) spoils.push(...bodySpoils(op.body));
  const badBodies = body
    ? [
        badBodyText.map((text): Spoil => ({ at: 'bodyText', text })),
        fc
          .constantFrom<string | null>(null, ...WRONG_CONTENT_TYPES)
          .map((value): Spoil => ({ at: 'contentType', value })),
      ]
    : [];
  if (op.body) spoils.push(...badBodies);
  if (credential) {
    spoils.push(credential.bad.map((headers): Spoil => ({ at: 'credential', headers })));
  }
  const junk =
    op.body || badBodies.length === 0
      ? fc.constant<Spoil[]>([])
      : fc.option(fc.oneof(...badBodies), { nil: undefined }).map((j) => (j ? [j] : []));
  return { base, credential, spoils, junk, locked };
}

function withCredential(prepared: Prepared, draft: Draft, spoils: Spoil[]): Draft {
  if (!prepared.credential || spoils.some((s) => s.at === 'credential')) return draft;
  const bodyText =
    draft.body === null ? '' : 'json' in draft.body ? jsonText(draft.body.json) : draft.body.text;
  return { ...draft, credential: prepared.credential.headers(bodyText) };
}

/** Refused by the parser or the schema: no handler saw the request. */
function refusedEarly(res: { statusCode: number; json(): unknown }, spoils: Spoil[]) {
  if ([413, 414, 415].includes(res.statusCode)) return true;
  if (res.statusCode !== 400) return false;
  const unparsable = spoils.some((spoil) => spoil.at === 'bodyText' || spoil.at === 'contentType');
  return unparsable || (res.json() as { error?: string }).error === 'validation';
}

/**
 * What the schemas a route the document hides was registered with refuse in a request. Its
 * example is checked here, not sent: what a sandbox keeps (a payment link's reference) would
 * then be taken, and could refuse a spoilt input that its schema let through.
 */
function registeredRefusals(op: Operation, draft: Draft): string[] {
  const decoded = (entries: [string, string][]) =>
    Object.fromEntries(entries.map(([name, value]) => [name, decodeURIComponent(value)]));
  const parts = {
    params: decoded(Object.entries(draft.params)),
    querystring: decoded(draft.query),
    body: draft.body && 'json' in draft.body ? draft.body.json : undefined,
  };
  return Object.entries(parts).flatMap(([part, value]) => {
    const schema = op.registered?.[part as keyof typeof parts] as z.ZodType | undefined;
    const result = schema?.safeParse(value);
    return result?.success === false ? [`${part}: ${result.error.message}`] : [];
  });
}

const summary = (op: Operation, res: { statusCode: number; body: string }) =>
  `${op.method} ${op.path} answered ${res.statusCode}: ${res.body.slice(0, 200)}`;

type Answer = Awaited<ReturnType<typeof send>>;

/** Runs the property RUNS times, then compares every table with what it was before. */
async function fuzz(
  op: Operation,
  prepared: Prepared,
  inputs: fc.Arbitrary<Spoil[]>,
  judge: (res: Answer, spoils: Spoil[]) => string | null,
) {
  const before = await tableDigests();
  const result = await fc.check(
    fc.asyncProperty(inputs, prepared.junk, noise, async (spoils, junk, extra) => {
      const draft = withCredential(prepared, spoilt(prepared.base, [...junk, ...spoils]), spoils);
      const wrong = judge(await send(op, draft, extra), spoils);
      if (wrong) throw new Error(wrong);
    }),
    { numRuns: RUNS },
  );
  const report = result.failed
    ? `${fc.defaultReportMessage(result)}\n${(result.errorInstance as Error).message}`
    : null;
  expect(report).toBeNull();
  expect(result.numRuns).toBe(RUNS);
  const after = await tableDigests();
  const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
  expect(changed, 'the tables that changed').toEqual([]);
}

const prepared = new Map<Operation, Prepared>();
for (const op of operations) prepared.set(op, await prepare(op));
const takesInput = operations.filter((op) => prepared.get(op)!.spoils.length > 0);
const takesNone = operations.filter((op) => prepared.get(op)!.spoils.length === 0);

describe('the routes of the app', () => {
  it('are found in the OpenAPI document or the router, the sandboxes included', () => {
    expect(documented.length).toBeGreaterThan(25);
    expect(hidden.some((op) => op.path.startsWith('/sandbox/'))).toBe(true);
    // the sandboxes' inputs, from the schemas their routes were registered with
    expect(hidden.filter((op) => op.body).length).toBeGreaterThan(1);
    expect(hidden.some((op) => op.parameters.some((p) => p.in === 'query'))).toBe(true);
    for (const op of operations) {
      expect(t.app.hasRoute({ method: op.method as 'GET', url: op.path }), op.path).toBe(true);
      expect(prepared.get(op)!.locked, `${op.path} refuses every credential known`).toBe(false);
    }
  });
});

describe('every route that takes input, given bad input', () => {
  for (const op of takesInput) {
    const name = `${op.method} ${op.path}`;
    it(`${name} answers 4xx to ${RUNS} bad inputs and changes no table`, async () => {
      const ready = prepared.get(op)!;
      // the valid request passes validation, so each spoilt one fails for what was spoilt, and
      // the handler answers it: on PGlite's run this is the smoke of the route on that database
      if (op.registered) {
        expect(registeredRefusals(op, ready.base), `the example request of ${name}`).toEqual([]);
      }
      if (op.documented) {
        const res = await send(op, withCredential(ready, ready.base, []));
        const refused =
          [413, 414, 415].includes(res.statusCode) ||
          (res.statusCode === 400 && res.json().error === 'validation');
        expect(refused, `the example request of ${summary(op, res)}`).toBe(false);
        expect(res.statusCode, `the example request of ${summary(op, res)}`).toBeLessThan(500);
      }
      // one spoil a place, so that none undoes another
      const inputs = fc.uniqueArray(fc.oneof(...ready.spoils), {
        minLength: 1,
        maxLength: 3,
        selector: placeOf,
      });
      await fuzz(op, ready, inputs, (res, spoils) => {
        if (res.statusCode < 400 || res.statusCode >= 500) return summary(op, res);
        const mustBeRefusedEarly =
          op.documented &&
          spoils.some(breaksContract) &&
          // a spoilt path may lead to no route at all: 404 before any validation
          !spoils.some((spoil) => spoil.at === 'param');
        return mustBeRefusedEarly && !refusedEarly(res, spoils)
          ? `reached the handler: ${summary(op, res)}`
          : null;
      });
    }, 600_000);
  }
});

describe('every route that takes no input, given junk it does not read', () => {
  for (const op of takesNone) {
    const name = `${op.method} ${op.path}`;
    it(`${name} answers below 500 to ${RUNS} requests and changes no table`, async () => {
      await fuzz(op, prepared.get(op)!, fc.constant([]), (res) =>
        res.statusCode >= 500 ? summary(op, res) : null,
      );
    }, 600_000);
  }
});
