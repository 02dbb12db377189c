// Tokens an agent reads to finish the TodoMVC task with the agent CLI and
// with agent-browser, on one Chromium: add three todos, complete one,
// filter Active, clear completed. Every output the agent reads is counted
// (o200k, as ../shared/bench counts). The policy is the same for both: look
// once, act, read the answer, look again only after a navigation or when
// the answers so far do not name the element to act on. The ids and refs
// are read from the outputs, as an agent would. See README.md.
//
//   node tokens.mjs --cdp http://127.0.0.1:9222 --url http://127.0.0.1:8000/todomvc/react/ \
//     --domscope ./domscope --agent-browser /path/to/agent-browser
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const args = Object.fromEntries(process.argv.slice(2).reduce((a, v, i, all) => (v.startsWith('--') ? a.concat([[v.slice(2), all[i + 1]]]) : a), []));
const cdp = args.cdp || 'http://127.0.0.1:9222';
const url = args.url || 'http://127.0.0.1:8000/todomvc/react/';
const ours = args.domscope || './domscope';
const ab = args['agent-browser'];
const benchDir = process.env.BENCH_DIR || path.resolve(import.meta.dirname, '../../../../../shared/bench');
const { get_encoding } = createRequire(path.join(benchDir, 'package.json'))('@dqbd/tiktoken');
const enc = get_encoding('o200k_base');
const tok = (s) => enc.encode(s || '').length;
const todos = ['buy milk', 'walk the dog', 'read a book'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// run runs a command and gives what the agent reads: stdout and stderr.
function run(cmd, argv) {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60000 });
  } catch (e) {
    return (e.stdout || '') + (e.stderr || '');
  }
}

// newTab opens url in a tab of its own and gives its id.
async function newTab() {
  const r = await fetch(`${cdp}/json/new?${url}`, { method: 'PUT' });
  const { id } = await r.json();
  await sleep(1500); // loaded
  return id;
}

async function closeTab(id) {
  await fetch(`${cdp}/json/close/${id}`);
}

// Transcript keeps what the agent read, step by step.
class Transcript {
  constructor(tool) { this.tool = tool; this.steps = []; }
  read(step, out) { this.steps.push({ step, tokens: tok(out), out }); return out; }
  get tokens() { return this.steps.reduce((n, s) => n + s.tokens, 0); }
}

// lastID is the id on the last line of outs (newest first) that matches re.
function lastID(outs, re) {
  for (const out of [...outs].reverse()) {
    const lines = out.split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      if (re.test(lines[i])) {
        const m = lines[i].match(/\[(\d+)\]/);
        if (m) return m[1];
      }
    }
  }
  throw new Error(`nothing matches ${re} in:\n${outs.join('\n---\n')}`);
}

// checkboxOf is the id of the checkbox of the todo labelled text: in the
// interactive view it says `in "text"`; in a diff it is the line above
// the todo's label.
function checkboxOf(outs, text) {
  for (const out of [...outs].reverse()) {
    const lines = out.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (/checkbox/.test(lines[i]) && lines[i].includes(`in "${text}"`)) return lines[i].match(/\[(\d+)\]/)[1];
      if (i > 0 && /label/.test(lines[i]) && lines[i].includes(`"${text}"`) && /checkbox/.test(lines[i - 1])) return lines[i - 1].match(/\[(\d+)\]/)[1];
    }
  }
  throw new Error(`no checkbox of ${text}`);
}

async function domscope() {
  const id = await newTab();
  const t = new Transcript('domscope');
  const cli = (...a) => run(ours, [...a, '--endpoint', cdp, '--target', id]);
  const outs = [];
  const look = (step) => outs.push(t.read(step, cli('snapshot', '-i')));
  // act reads the answer; a verdict of a new document is looked at again.
  const act = (step, ...a) => {
    const out = t.read(step, cli(...a));
    outs.push(out);
    if (/^\S+ \[\d+\]: navigated/.test(out) && !/\nview: /.test(out)) look('look (navigated)');
  };
  look('look');
  const box = lastID(outs, /textbox "New Todo/);
  for (const todo of todos) act(`add "${todo}"`, 'type', box, todo, '--enter');
  act('complete', 'click', checkboxOf(outs, todos[0]));
  act('filter Active', 'click', lastID(outs, /link "Active"/));
  act('clear completed', 'click', lastID(outs, /button "Clear completed"/));
  const end = cli('snapshot', '-i'); // not counted: the check
  await closeTab(id);
  return { t, ok: !end.includes(todos[0]) && end.includes(todos[1]) && end.includes(todos[2]) && !end.includes('Clear completed'), end };
}

async function agentBrowser() {
  const id = await newTab();
  const t = new Transcript('agent-browser');
  const port = new URL(cdp).port;
  const cli = (...a) => run(ab, ['--namespace', 'tokens', '--cdp', port, ...a]);
  // Its commands act on its active tab: the task's tab (not counted).
  cli('tab', id);
  let view = '';
  const look = (step) => { view = t.read(step, cli('snapshot', '-i')); };
  const ref = (re) => {
    const line = view.split('\n').find((l) => re.test(l));
    if (!line) throw new Error(`nothing matches ${re} in:\n${view}`);
    return '@' + line.match(/ref=(e\d+)/)[1];
  };
  look('look');
  const box = ref(/textbox "New Todo/);
  for (const todo of todos) {
    t.read(`fill "${todo}"`, cli('fill', box, todo));
    t.read('press Enter', cli('press', 'Enter'));
  }
  // Its answers are "✓ Done": the new checkboxes need a look.
  look('look (new todos)');
  const boxes = view.split('\n').filter((l) => /checkbox/.test(l) && !/Toggle All/.test(l));
  t.read('complete', cli('click', '@' + boxes[0].match(/ref=(e\d+)/)[1]));
  t.read('filter Active', cli('click', ref(/link "Active"/)));
  look('look (navigated)');
  t.read('clear completed', cli('click', ref(/button "Clear completed"/)));
  const end = cli('snapshot'); // not counted: the check
  await closeTab(id);
  return { t, ok: /2 items left/.test(end) && !end.includes('Clear completed'), end };
}

const rows = [];
for (const [name, f] of [['domscope', domscope], ['agent-browser', ab && agentBrowser]]) {
  if (!f) continue;
  const { t, ok, end } = await f();
  if (!ok) console.error(`${name}: the task did not end as it should:\n${end}`);
  for (const s of t.steps) console.error(`${name}\t${s.step}\t${s.tokens}`);
  if (process.env.SHOW) for (const s of t.steps) console.error(`--- ${name}: ${s.step}\n${s.out}`);
  rows.push({ tool: name, tokens: t.tokens, reads: t.steps.length, done: ok });
}
const by = Object.fromEntries(rows.map((r) => [r.tool, r.tokens]));
const out = { rows };
if (by.domscope && by['agent-browser']) out.vsAgentBrowser = +(by.domscope / by['agent-browser']).toFixed(3);
if (by.domscope) out.vsPlaywrightMCP = +(by.domscope / 3508).toFixed(3); // issue 34's figure
console.log(JSON.stringify(out, null, 1));
