// check-trace.mjs: loads a Chrome Trace Event JSON file in two real trace
// clients and fails when either rejects it or loses a slice.
//
//   node check-trace.mjs [--clients=DIR] TRACE.json
//
// 1. The file itself: strict JSON, {"traceEvents": [...]}, every event with
//    ph/pid/name (and tid unless it names a process), X events with numeric
//    ts and dur >= 0, M events naming every process and thread used, and the
//    X slices of each thread nesting exactly (compared as the clients do, in
//    doubles: a slice that starts inside another ends inside it).
// 2. Chrome DevTools' trace engine (@paulirish/trace_engine, the parser of the
//    Performance panel): parses the events; every X slice must be a node of
//    its thread's tree (the engine silently skips a slice that overlaps its
//    parent), and anything it logs while parsing counts as an error.
// 3. speedscope's Trace Event Format importer (the `speedscope` package's
//    bundle, run in a node:vm context with the few browser globals it reads
//    at load): one profile per thread; every X slice must be entered as a
//    call, and anything it warns about (mismatched ends, frames left open)
//    counts as an error.
//
// DIR holds node_modules with both packages (scripts/trace-clients.sh
// installs them into BUILD/trace-clients); it defaults to
// $TESSERA_TRACE_CLIENTS, else this script's folder. Prints a short summary
// (for FileCheck) on stdout; on failure, "check-trace: FAIL: ..." lines on
// stderr and exit code 1. Exit code 2: bad usage or the clients are missing.

import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import {createRequire} from 'node:module';
import {fileURLToPath, pathToFileURL} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function usage(message) {
  process.stderr.write(`check-trace: ${message}\n` +
                       'usage: node check-trace.mjs [--clients=DIR] TRACE.json\n');
  process.exit(2);
}

let clientsDir = process.env.TESSERA_TRACE_CLIENTS || here;
let tracePath = null;
for (const arg of process.argv.slice(2)) {
  if (arg.startsWith('--clients=')) clientsDir = arg.slice('--clients='.length);
  else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
  else if (tracePath === null) tracePath = arg;
  else usage('one trace file expected');
}
if (tracePath === null) usage('no trace file given');

const failures = [];
function fail(message) { failures.push(message); }
// "ok" when no failure was added since `since` (failures.length then).
const status = since => failures.length === since ? 'ok' : 'FAILED';

function finish() {
  for (const message of failures)
    process.stderr.write(`check-trace: FAIL: ${message}\n`);
  process.exit(failures.length ? 1 : 0);
}

// Too many messages of one kind only hide the others.
function limited(list, max = 10) {
  if (list.length <= max) return list;
  return [...list.slice(0, max), `... and ${list.length - max} more`];
}

const key = (pid, tid) => `${pid}:${tid}`;

// An exception with where it was thrown, in three lines.
const brief = e => (e?.stack ? e.stack.split('\n').slice(0, 3).join('\n') : String(e));

//===----------------------------------------------------------------------===//
// 1. The file
//===----------------------------------------------------------------------===//

let text;
try {
  text = fs.readFileSync(tracePath, 'utf8');
} catch (e) {
  fail(`cannot read ${tracePath}: ${e.message}`);
  finish();
}
let doc;
try {
  doc = JSON.parse(text);
} catch (e) {
  fail(`${tracePath}: not JSON: ${e.message}`);
  finish();
}
if (doc === null || typeof doc !== 'object' || Array.isArray(doc) ||
    !Array.isArray(doc.traceEvents)) {
  fail(`${tracePath}: not a trace: expected an object with a "traceEvents" array`);
  finish();
}
if ('displayTimeUnit' in doc && doc.displayTimeUnit !== 'ms' &&
    doc.displayTimeUnit !== 'ns')
  fail(`displayTimeUnit is ${JSON.stringify(doc.displayTimeUnit)}, not "ms" or "ns"`);

const events = doc.traceEvents;
// The phases of the Trace Event Format; anything else is ignored by the
// clients, so it would be an event lost.
const knownPhases = new Set(['B', 'E', 'X', 'i', 'I', 'C', 'b', 'n', 'e', 's',
                             't', 'f', 'P', 'O', 'N', 'D', 'M', 'V', 'v', 'R',
                             'c', '(', ')']);
// Metadata about a process: no tid.
const processMetadata = new Set(['process_name', 'process_labels',
                                 'process_sort_index', 'process_uptime_seconds']);
const isNumber = v => typeof v === 'number' && Number.isFinite(v);
const isId = v => Number.isInteger(v);

const byPhase = new Map();
const processNames = new Map();       // pid -> name
const threadNames = new Map();        // "pid:tid" -> name
const usedProcesses = new Set();      // pids with events other than M
const usedThreads = new Set();        // "pid:tid" with events other than M and C
const slicesByThread = new Map();     // "pid:tid" -> [X event, ...]
const eventErrors = [];

events.forEach((e, index) => {
  const where = `traceEvents[${index}]`;
  if (e === null || typeof e !== 'object' || Array.isArray(e)) {
    eventErrors.push(`${where} is not an object`);
    return;
  }
  const what = `${where} (${JSON.stringify(e.name)}, ph ${JSON.stringify(e.ph)})`;
  if (typeof e.ph !== 'string' || !knownPhases.has(e.ph)) {
    eventErrors.push(`${what}: unknown phase`);
    return;
  }
  byPhase.set(e.ph, (byPhase.get(e.ph) || 0) + 1);
  const processScoped = e.ph === 'M' && processMetadata.has(e.name);
  const missing = [typeof e.name !== 'string' && 'name', !isId(e.pid) && 'integer pid',
                   !processScoped && !isId(e.tid) && 'integer tid'].filter(Boolean);
  if (missing.length) {
    eventErrors.push(`${what}: no ${missing.join(', no ')}`);
    return;
  }
  if ('args' in e && (e.args === null || typeof e.args !== 'object'))
    eventErrors.push(`${what}: args is not an object`);
  if (e.ph === 'M') {
    if (e.name === 'process_name' || e.name === 'thread_name') {
      const name = e.args?.name;
      if (typeof name !== 'string' || name === '') {
        eventErrors.push(`${what}: no args.name`);
        return;
      }
      const names = e.name === 'process_name' ? processNames : threadNames;
      const id = e.name === 'process_name' ? String(e.pid) : key(e.pid, e.tid);
      if (names.has(id) && names.get(id) !== name)
        eventErrors.push(`${what}: ${id} named twice ` +
                         `(${JSON.stringify(names.get(id))} and ${JSON.stringify(name)})`);
      names.set(id, name);
    }
    return;
  }
  if (!isNumber(e.ts)) eventErrors.push(`${what}: ts is not a number`);
  usedProcesses.add(String(e.pid));
  if (e.ph === 'C') {
    const values = Object.values(e.args || {});
    if (!values.length || !values.every(isNumber))
      eventErrors.push(`${what}: a counter needs numeric args`);
    return;  // Counters belong to the process.
  }
  usedThreads.add(key(e.pid, e.tid));
  if (e.ph === 'B' || e.ph === 'E')
    eventErrors.push(`${what}: B/E pairs are not counted by this checker: write X events`);
  if (e.ph === 'X') {
    if (!isNumber(e.dur) || e.dur < 0)
      eventErrors.push(`${what}: dur is not a number >= 0`);
    let list = slicesByThread.get(key(e.pid, e.tid));
    if (!list) slicesByThread.set(key(e.pid, e.tid), list = []);
    list.push(e);
  }
});
for (const message of limited(eventErrors)) fail(message);

for (const pid of usedProcesses)
  if (!processNames.has(pid)) fail(`pid ${pid} has events but no process_name`);
for (const id of usedThreads)
  if (!threadNames.has(id)) fail(`thread ${id} has events but no thread_name`);

// Nesting, compared exactly as both clients compare (end = ts + dur in
// doubles; sorted by start, longer first, then file order).
const nestErrors = [];
let maxDepth = 0;
let sliceCount = 0;
const zeroAtStart = [];  // zero-duration slices that start with another
for (const [id, slices] of slicesByThread) {
  sliceCount += slices.length;
  const sorted = slices.map((e, i) => ({e, i}))
      .filter(({e}) => isNumber(e.ts) && isNumber(e.dur))
      .sort((a, b) => a.e.ts - b.e.ts || b.e.dur - a.e.dur || a.i - b.i)
      .map(({e}) => e);
  // speedscope enters the slices that start together longest first but
  // ends a zero-duration one before entering it: it then mis-nests.
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i].dur === 0 && sorted[i].ts === sorted[i - 1].ts)
      zeroAtStart.push(`thread ${id}: ${JSON.stringify(sorted[i].name)} at ts ${sorted[i].ts}`);
  const stack = [];
  for (const e of sorted) {
    while (stack.length && e.ts >= stack.at(-1).ts + stack.at(-1).dur)
      stack.pop();
    const parent = stack.at(-1);
    if (parent && e.ts + e.dur > parent.ts + parent.dur) {
      nestErrors.push(`thread ${id}: slice ${JSON.stringify(e.name)} ` +
                      `[${e.ts}, ${e.ts + e.dur}] starts inside ` +
                      `${JSON.stringify(parent.name)} [${parent.ts}, ` +
                      `${parent.ts + parent.dur}] and ends after it` +
                      (e.ts + e.dur - (parent.ts + parent.dur) < 1e-3
                           ? ' (by a rounding error: ts + dur in doubles must ' +
                             'stay inside the parent; the clients compare exactly)'
                           : ''));
      continue;
    }
    stack.push(e);
    maxDepth = Math.max(maxDepth, stack.length);
  }
}
for (const message of limited(nestErrors)) fail(message);

const phaseList = [...byPhase].sort((a, b) => a[0].localeCompare(b[0]))
    .map(([ph, n]) => `${ph} ${n}`).join(', ');
console.log(`trace: ${status(0)}, ${events.length} events (${phaseList}), ` +
            `${processNames.size} processes, ${threadNames.size} threads, ` +
            `${sliceCount} slices, depth ${maxDepth}`);

// Describes a thread for messages: pid:tid "process/thread".
const threadLabel = id => {
  const pid = id.split(':')[0];
  return `${id} (${processNames.get(pid) ?? '?'}/${threadNames.get(id) ?? '?'})`;
};

//===----------------------------------------------------------------------===//
// Finding the clients
//===----------------------------------------------------------------------===//

const requireFromClients = createRequire(path.join(path.resolve(clientsDir), 'noop.js'));
function packageDir(name) {
  try {
    return path.dirname(requireFromClients.resolve(`${name}/package.json`));
  } catch {
    process.stderr.write(
        `check-trace: ${name} is not installed under ${clientsDir}/node_modules ` +
        '(scripts/trace-clients.sh installs it)\n');
    process.exit(2);
  }
}
const versionOf = dir =>
    JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;

// Runs fn with console.* captured; returns [result, messages].
async function capturingConsole(fn) {
  const saved = {};
  const messages = [];
  for (const level of ['log', 'info', 'debug', 'warn', 'error']) {
    saved[level] = console[level];
    console[level] = (...args) => messages.push({level, text: args.map(String).join(' ')});
  }
  try {
    return [await fn(), messages];
  } finally {
    Object.assign(console, saved);
  }
}

//===----------------------------------------------------------------------===//
// 2. Chrome DevTools' trace engine
//===----------------------------------------------------------------------===//

async function checkTraceEngine() {
  const dir = packageDir('@paulirish/trace_engine');
  const version = versionOf(dir);
  const since = failures.length;
  // The package's own node entry point exports the DOMRect polyfill that its
  // README says node needs.
  const analyze = await import(pathToFileURL(path.join(dir, 'analyze-trace.mjs')));
  analyze.polyfillDOMRect();
  // Debian bookworm's node 18 lacks two newer built-ins that the engine
  // calls: URL.parse (node 20.18) on every trace, Array.prototype.toSorted
  // (node 20) in one insight.
  if (!URL.parse) {
    URL.parse = (url, base) => {
      try { return new URL(url, base); } catch { return null; }
    };
  }
  if (!Array.prototype.toSorted) {
    Object.defineProperty(Array.prototype, 'toSorted', {
      value(compare) { return [...this].sort(compare); },
      writable: true, configurable: true,
    });
  }
  const Trace = await import(pathToFileURL(requireFromClients.resolve('@paulirish/trace_engine')));

  // The engine annotates events in place: give it its own copy.
  const copy = JSON.parse(JSON.stringify(events));
  let parsed;
  let messages;
  try {
    [parsed, messages] = await capturingConsole(async () => {
      const model = Trace.TraceModel.Model.createWithAllHandlers();
      await model.parse(copy);
      return model.parsedTrace();
    });
  } catch (e) {
    fail(`trace_engine ${version} threw: ${brief(e)}`);
    console.log('trace_engine: FAILED, threw');
    return;
  }
  const errors = messages.filter(m => m.level === 'warn' || m.level === 'error');
  for (const m of limited(errors.map(m => `trace_engine ${m.level}: ${m.text}`)))
    fail(m);
  if (!parsed?.data) {
    fail(`trace_engine ${version} returned no parsed trace`);
    console.log('trace_engine: FAILED, no parsed trace');
    return;
  }
  const data = parsed.data;

  // Slices per thread that made it into the thread's tree.
  const kept = new Map();
  const engineThreads = new Map();
  let processes = 0;
  for (const [pid, process] of data.Renderer.processes) {
    if (process.threads.size) processes++;
    for (const [tid, thread] of process.threads) {
      const id = key(pid, tid);
      engineThreads.set(id, thread);
      let n = 0;
      const walk = node => {
        if (node.entry.ph === 'X') n++;
        node.children.forEach(walk);
      };
      thread.tree?.roots.forEach(walk);
      kept.set(id, n);
    }
  }
  let keptCount = 0;
  for (const [id, slices] of slicesByThread) {
    const n = kept.get(id) ?? 0;
    keptCount += n;
    if (!engineThreads.has(id))
      fail(`trace_engine dropped thread ${threadLabel(id)} with its ${slices.length} slices`);
    else if (n !== slices.length)
      fail(`trace_engine kept ${n} of the ${slices.length} slices of thread ${threadLabel(id)}`);
    const name = engineThreads.get(id)?.name;
    if (name != null && threadNames.has(id) && name !== threadNames.get(id))
      fail(`trace_engine names thread ${id} ${JSON.stringify(name)}, ` +
           `not ${JSON.stringify(threadNames.get(id))}`);
  }
  for (const [pid, name] of processNames) {
    const engineName = data.Meta.processNames.get(Number(pid))?.args?.name;
    if (usedProcesses.has(pid) && engineName !== name)
      fail(`trace_engine names process ${pid} ${JSON.stringify(engineName)}, ` +
           `not ${JSON.stringify(name)}`);
  }
  console.log(`trace_engine: ${status(since)}, ` +
              `${parsed.traceEvents.length} events, ${processes} processes, ` +
              `${engineThreads.size} threads, ${keptCount} slices, ${errors.length} errors`);
  return new Map([...engineThreads.keys()].map(id => [id, kept.get(id)]));
}

//===----------------------------------------------------------------------===//
// 3. speedscope
//===----------------------------------------------------------------------===//

// speedscope ships one browser bundle (an IIFE that renders the app). Its
// importers module (importProfileGroupFromText & co.) is loaded lazily
// through a promise; we run the bundle in a vm context up to that promise,
// hand the promise out, and return before the app renders.
async function loadSpeedscope(dir) {
  const release = path.join(dir, 'dist', 'release');
  const html = fs.readFileSync(path.join(release, 'index.html'), 'utf8');
  const script = /<script src="([^"]+\.js)"><\/script>/.exec(html)?.[1];
  if (!script) throw new Error('no <script> in dist/release/index.html');
  let source = fs.readFileSync(path.join(release, script), 'utf8');
  const id = '[\\w$]+';
  const exportsObject = new RegExp(
      `var (${id})=\\{\\};${id}\\(\\1,\\{importFromFileSystemDirectoryEntry:`).exec(source);
  const lazy = exportsObject && new RegExp(
      `var (${id})=Promise\\.resolve\\(\\)\\.then\\(\\(\\)=>\\(${id}\\(\\),` +
      `${exportsObject[1].replace(/\$/g, '\\$')}\\)\\);`).exec(source);
  if (!lazy)
    throw new Error(`cannot find the importers module in ${script} ` +
                    '(the bundle changed: update check-trace.mjs)');
  const cut = lazy.index + lazy[0].length;
  source = source.slice(0, cut) + `globalThis.__importers=${lazy[1]};return;` +
           source.slice(cut);
  // The globals the bundle reads while it loads (hash parameters, color
  // scheme); no DOM is touched before the cut.
  const sandbox = {
    console, TextDecoder, TextEncoder, URL, atob, btoa, setTimeout, clearTimeout,
    location: {hash: '', protocol: 'file:', href: 'file:///speedscope/index.html', search: ''},
    localStorage: {},
    navigator: {userAgent: 'node', platform: process.platform},
    devicePixelRatio: 1,
    matchMedia: () => ({matches: false, addListener() {}, removeListener() {},
                        addEventListener() {}, removeEventListener() {}}),
    addEventListener() {}, removeEventListener() {},
    requestAnimationFrame: f => setTimeout(f, 0), cancelAnimationFrame: clearTimeout,
  };
  sandbox.window = sandbox;
  sandbox.self = sandbox;
  vm.createContext(sandbox);
  vm.runInContext(source, sandbox, {filename: script});
  return sandbox.__importers;
}

async function checkSpeedscope() {
  const dir = packageDir('speedscope');
  const version = versionOf(dir);
  const since = failures.length;
  let group;
  let messages;
  try {
    const importers = await loadSpeedscope(dir);
    [group, messages] = await capturingConsole(async () =>
        (await importers).importProfileGroupFromText(path.basename(tracePath), text));
  } catch (e) {
    fail(`speedscope ${version} threw: ${brief(e)}`);
    console.log('speedscope: FAILED, threw');
    return;
  }
  if (!group) {
    fail(`speedscope ${version} did not recognize the file`);
    console.log('speedscope: FAILED, not recognized');
    return;
  }
  const format = messages.find(m => m.level === 'log' && m.text.startsWith('Importing as '));
  if (format?.text !== 'Importing as Trace Event Format profile')
    fail(`speedscope read the file as ${format ? format.text.slice(13) : 'an unknown format'}, ` +
         'not as Trace Event Format');
  const warnings = messages.filter(m => m.level === 'warn' || m.level === 'error');
  for (const m of limited(warnings.map(m => `speedscope ${m.level}: ${m.text}`)))
    fail(m);
  if (warnings.length && zeroAtStart.length)
    fail('speedscope mis-nests a zero-duration slice that starts at the same ts as ' +
         'another slice of its thread (write an instant event, or give it a duration): ' +
         limited(zeroAtStart, 3).join('; '));

  // One profile per thread, named as speedscope names them.
  const profileName = id => {
    const [pid, tid] = id.split(':');
    const process = processNames.get(pid), thread = threadNames.get(id);
    if (process != null && thread != null) return `${process} (pid ${pid}), ${thread} (tid ${tid})`;
    if (process != null) return `${process} (pid ${pid}, tid ${tid})`;
    if (thread != null) return `${thread} (pid ${pid}, tid ${tid})`;
    return `pid ${pid}, tid ${tid}`;
  };
  const threadOfProfile = new Map([...usedThreads.keys()].map(id => [profileName(id), id]));
  const entered = new Map();
  for (const profile of group.profiles) {
    const name = profile.getName();
    const id = threadOfProfile.get(name);
    if (id === undefined) {
      fail(`speedscope made a profile ${JSON.stringify(name)} that is no thread with slices`);
      continue;
    }
    // Every slice entered is one node of the append-order call tree.
    let nodes = 0;
    const walk = node => node.children.forEach(child => { nodes++; walk(child); });
    walk(profile.getAppendOrderCalltreeRoot());
    entered.set(id, nodes);
  }
  let enteredCount = 0;
  for (const [id, slices] of slicesByThread) {
    const n = entered.get(id);
    enteredCount += n ?? 0;
    if (n === undefined)
      fail(`speedscope has no profile for thread ${threadLabel(id)} and its ${slices.length} slices`);
    else if (n !== slices.length)
      fail(`speedscope entered ${n} of the ${slices.length} slices of thread ${threadLabel(id)}`);
  }
  console.log(`speedscope: ${status(since)}, ` +
              `${group.profiles.length} profiles, ${enteredCount} slices, ` +
              `${warnings.length} warnings`);
  return entered;
}

const engineKept = await checkTraceEngine();
const speedscopeEntered = await checkSpeedscope();

// One line per thread with slices, in pid/tid order.
const order = id => id.split(':').map(Number);
for (const id of [...slicesByThread.keys()].sort((a, b) => {
       const [ap, at] = order(a), [bp, bt] = order(b);
       return ap - bp || at - bt || a.localeCompare(b);
     })) {
  const pid = id.split(':')[0];
  console.log(`thread ${id} ${processNames.get(pid) ?? '?'} / ${threadNames.get(id) ?? '?'}: ` +
              `${slicesByThread.get(id).length} slices, ` +
              `trace_engine ${engineKept?.get(id) ?? '-'}, ` +
              `speedscope ${speedscopeEntered?.get(id) ?? '-'}`);
}
finish();
