// The TodoMVC task over MCP (add three todos, complete one, filter
// Active, clear completed): the tokens and time of each action's answer,
// old and new binaries. Tokens are the server's own count (its log line).
// node todomvc-answers.mjs --bins OLD,NEW URL...   (URL: a TodoMVC app)
import { Mcp } from '../../../shared/bench/mcp.mjs';
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); if (i < 0) return d; const v = argv[i + 1]; argv.splice(i, 2); return v; };
const bins = opt('--bins', '').split(',');
const sleep = ms => new Promise(r => setTimeout(r, ms));
const idOf = (view, re) => { for (const l of view.split('\n')) if (re.test(l)) { const m = l.match(/\[(\d+)\]/); if (m) return m[1]; } throw new Error('no line ' + re + ' in\n' + view); };
for (const url of argv) {
  for (const bin of bins) {
    const m = new Mcp(bin, ['mcp', '--launch', '--headless', '--url', url]);
    await m.init();
    let view = (await m.call('dom_snapshot', {})).text;
    const answers = [];
    const act = async (tool, args) => { const r = await m.call(tool, args); answers.push(r); await sleep(400); return r.text; };
    for (const t of ['Buy milk', 'Walk the dog', 'Write the report'])
      await act('dom_type', { id: idOf(view, /textbox/), text: t + '\n' });
    view = (await m.call('dom_snapshot', {})).text;
    await act('dom_click', { id: idOf(view, /^(?!.*(toggle.?all|mark all)).*checkbox/i) });
    view = (await m.call('dom_snapshot', {})).text;
    await act('dom_click', { id: idOf(view, /link "Active"/) });
    view = (await m.call('dom_snapshot', {})).text;
    await act('dom_click', { id: idOf(view, /button "Clear completed"/) });
    m.close(); await sleep(300);
    const toks = [...m.stderr.matchAll(/→ [^,]+, [\d.]+ ms, (\d+) tokens/g)].map(x => +x[1]);
    const calls = [...m.stderr.matchAll(/#\d+ (dom_\w+)/g)].map(x => x[1]);
    let sum = 0; const per = [];
    calls.forEach((c, i) => { if (c !== 'dom_snapshot') { sum += toks[i]; per.push(toks[i]); } });
    console.log(JSON.stringify({ app: url.replace(/^.*todomvc\//, ''), bin, answerTokens: sum, per, ms: answers.map(a => Math.round(a.ms)) }));
    if (process.env.SHOW) console.log(answers.map(a => a.text).join('\n----\n'));
  }
}
process.exit(0);
