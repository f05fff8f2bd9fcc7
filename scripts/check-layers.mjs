// The layering of src/ (issue 34, decision 063), part of `npm run lint` and so of `npm test`:
// dependency-cruiser checks each import against the rules in .dependency-cruiser.cjs, and this
// script adds what it cannot check, that no two domains (src/modules/*) import each other, directly
// or around a loop. The exceptions listed in the config are the only imports allowed against
// either check; the check fails when there are more than 10, or when one no longer occurs.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { root } from './lib.mjs';

const MAX_EXCEPTIONS = 10;
// Another tree and config (LAYERS_ROOT, LAYERS_CONFIG): the checker's own test runs it on small trees.
const tree = process.env.LAYERS_ROOT ?? root;
const configFile = process.env.LAYERS_CONFIG ?? path.join(root, '.dependency-cruiser.cjs');
const require = createRequire(import.meta.url);
const { EXCEPTIONS } = require(configFile);

const output = execFileSync(path.join(root, 'node_modules', '.bin', 'depcruise'), ['src', '--config', configFile, '--output-type', 'json'], {
  cwd: tree,
  maxBuffer: 256 * 1024 * 1024,
  encoding: 'utf8',
});
const result = JSON.parse(output);

const used = new Set();
const excepted = (from, to) => {
  const index = EXCEPTIONS.findIndex((e) => e.from === from && e.to === to);
  if (index >= 0) used.add(index);
  return index >= 0;
};

const problems = [];
for (const v of result.summary.violations) {
  if (excepted(v.from, v.to)) continue;
  const loop = v.cycle ? `: ${[v.from, ...v.cycle.map((c) => c.name ?? c)].join(' → ')}` : '';
  problems.push(`${v.rule.name}: ${v.from} → ${v.to}${loop}`);
}

// The domains' graph: an arrow from one module to another for every import between their files.
const moduleOf = (file) => /^src\/modules\/([^/]+)\//.exec(file)?.[1];
const arrows = new Map();
for (const m of result.modules) {
  const from = moduleOf(m.source);
  if (!from) continue;
  for (const d of m.dependencies) {
    const to = moduleOf(d.resolved);
    if (!to || to === from || excepted(m.source, d.resolved)) continue;
    if (!arrows.has(from)) arrows.set(from, new Map());
    if (!arrows.get(from).has(to)) arrows.get(from).set(to, `${m.source} → ${d.resolved}`);
  }
}

// Tarjan's strongly connected components: a component of more than one module is a loop.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
function connect(domain) {
  index.set(domain, counter);
  low.set(domain, counter);
  counter++;
  stack.push(domain);
  onStack.add(domain);
  for (const next of arrows.get(domain)?.keys() ?? []) {
    if (!index.has(next)) {
      connect(next);
      low.set(domain, Math.min(low.get(domain), low.get(next)));
    } else if (onStack.has(next)) low.set(domain, Math.min(low.get(domain), index.get(next)));
  }
  if (low.get(domain) !== index.get(domain)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== domain);
  if (component.length < 2) return;
  const inside = new Set(component);
  const evidence = component.flatMap((a) => [...(arrows.get(a) ?? [])].filter(([b]) => inside.has(b)).map(([, example]) => `    ${example}`));
  problems.push(`no-module-loops: ${component.sort().join(', ')} import each other:\n${evidence.join('\n')}`);
}
for (const domain of arrows.keys()) if (!index.has(domain)) connect(domain);

if (EXCEPTIONS.length > MAX_EXCEPTIONS) problems.push(`${EXCEPTIONS.length} exceptions listed; at most ${MAX_EXCEPTIONS}`);
EXCEPTIONS.forEach((e, i) => {
  if (!used.has(i)) problems.push(`exception no longer needed (take it out of .dependency-cruiser.cjs): ${e.from} → ${e.to}`);
});

const summary = `${result.summary.totalCruised} files, ${result.summary.totalDependenciesCruised} imports, ${arrows.size} domains, ${EXCEPTIONS.length} listed exceptions`;
if (problems.length) {
  console.error(`Layer check failed (${summary}):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`Layers ok: ${summary}.`);
