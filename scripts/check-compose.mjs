// Checks deploy/compose.yaml against the Compose Specification's JSON schema, without a container
// daemon: the schema as Debian ships it with docker-compose (apt-get install docker-compose, no
// recommends), checked with ajv; `--schema FILE` names another copy.
//
//   node scripts/check-compose.mjs [--schema FILE] [compose.yaml]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Ajv2019 from 'ajv/dist/2019.js';
import { parse } from 'yaml';

const DEBIAN_SCHEMA = '/usr/lib/python3/dist-packages/compose/config/compose_spec.json';

const { values, positionals } = parseArgs({
  options: { schema: { type: 'string', default: DEBIAN_SCHEMA } },
  allowPositionals: true,
});
const file = positionals[0] ?? 'deploy/compose.yaml';
let schema = JSON.parse(readFileSync(values.schema, 'utf8'));
/**
 * The schema names draft 2019-09 by its old address (http, with a fragment), which ajv knows by
 * the new one, and names its parts with draft 4's `id` (`#/definitions/service`), which 2019-09
 * no longer has: ajv refuses it, and the names are only labels, so they go.
 */
function forAjv(node, keyedByName = false) {
  if (Array.isArray(node)) return node.map((item) => forAjv(item));
  if (node === null || typeof node !== 'object') return node;
  const result = {};
  for (const [key, value] of Object.entries(node)) {
    if (!keyedByName && key === 'id' && typeof value === 'string') continue;
    const names = ['properties', 'patternProperties', 'definitions', '$defs'].includes(key);
    result[key] = keyedByName ? forAjv(value) : forAjv(value, names);
  }
  return result;
}
schema = forAjv(schema);
schema.$schema = 'https://json-schema.org/draft/2019-09/schema';
const ajv = new Ajv2019({ allErrors: true, strict: false });
// the formats Compose defines for itself: Go durations (1m30s), published and exposed ports
// (8080:80/tcp, 127.0.0.1:8025:8025, 3000-3005) and subnets in CIDR form
const PORTS =
  /^(?:(?:\[[\da-f:]+\]|[\d.]+):)?(?:\d+(?:-\d+)?:)?\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/i;
ajv.addFormat('duration', /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/);
ajv.addFormat('ports', PORTS);
ajv.addFormat('expose', /^\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/);
ajv.addFormat('subnet_ip_address', /^(?:[\d.]+|[\da-f:]+)\/\d{1,3}$/i);
const validate = ajv.compile(schema);
const document = parse(readFileSync(file, 'utf8'));
if (validate(document)) {
  console.log(`${file}: valid against the Compose Specification (${values.schema})`);
} else {
  for (const error of validate.errors ?? []) {
    console.error(`${file}: ${error.instancePath || '/'} ${error.message}`);
  }
  process.exit(1);
}
