// `npm run lint:deps`: the import rules of .dependency-cruiser.cjs (decisions 065 and 067), and
// no circle between the server's modules or between the web app's features. A circle made of
// imports between different files (A's one file to B's, B's other file back to A's) breaks no
// rule of dependency-cruiser's, which sees files; here the files are grouped by what they belong
// to. The tables are left out of the server's groups: every module may read any table.
import { execFileSync } from 'node:child_process';

const cruised = JSON.parse(
  execFileSync(
    'npx',
    [
      'depcruise',
      'apps/server/src',
      'apps/web/src',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'json',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  ),
);

const TABLES =
  /^apps\/server\/src\/((modules|sandbox)\/[^/]+\/[a-z-]*schema|db\/schema|modules\/audit\/details)\.ts$/;

/** The group a file belongs to: a server module, a sandbox, a web feature, or a top folder. */
export function groupOf(file) {
  if (TABLES.test(file)) return null;
  const server =
    /^apps\/server\/src\/(?:(?:modules|sandbox)\/([^/]+)\/|([^/]+)\/|([^/]+)\.ts$)/.exec(file);
  if (server) return `server ${server[1] ?? server[2] ?? server[3]}`;
  const web = /^apps\/web\/src\/(?:features\/([^/]+)\/|([^/]+)\/|([^/]+)\.tsx?$)/.exec(file);
  if (web) return `web ${web[1] ?? web[2] ?? web[3]}`;
  return null;
}

/** Each group's imports of other groups, with the files that make them. */
function groupGraph(modules) {
  const graph = new Map();
  for (const { source, dependencies } of modules) {
    const from = groupOf(source);
    if (!from) continue;
    for (const { resolved } of dependencies) {
      const to = groupOf(resolved);
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      edges.set(to, [...(edges.get(to) ?? []), `${source} -> ${resolved}`]);
    }
  }
  return graph;
}

/** The graph's circles: its strongly connected parts of more than one group (Tarjan). */
function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const found = [];
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    for (const to of graph.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (stack.includes(to)) {
        low.set(node, Math.min(low.get(node), index.get(to)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part = [];
    let member;
    do {
      member = stack.pop();
      part.push(member);
    } while (member !== node);
    if (part.length > 1) found.push(part);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const problems = [];
for (const violation of cruised.summary.violations) {
  problems.push(`${violation.rule.name}: ${violation.from} -> ${violation.to}`);
}
const graph = groupGraph(cruised.modules);
for (const part of circles(graph)) {
  const members = new Set(part);
  problems.push(`a circle between ${part.join(', ')}:`);
  for (const from of part) {
    for (const [to, imports] of graph.get(from)) {
      if (members.has(to)) problems.push(...imports.map((line) => `  ${line}`));
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(
  `Import rules: no violation, and no circle between ${graph.size} groups ` +
    `(${cruised.summary.totalCruised} files, ${cruised.summary.totalDependenciesCruised} imports).`,
);
