// An agent's repeated view of an unchanged page: dom_snapshot (domscope mcp,
// old and new binaries) and browser_snapshot (Playwright MCP), calls 2..N.
// node mcprepeat.mjs --cdp URL --bins OLD,NEW --calls 6 PAGE...
// Needs @playwright/mcp beside playwright-core (../shared/bench has both).
import { Mcp } from './mcp.mjs';
import { chromium } from 'playwright-core';
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); if (i < 0) return d; const v = argv[i + 1]; argv.splice(i, 2); return v; };
const cdp = opt('--cdp', 'http://127.0.0.1:9333'), bins = opt('--bins', '').split(','), CALLS = Number(opt('--calls', '6'));
const med = a => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const browser = await chromium.connectOverCDP(cdp); const ctx = browser.contexts()[0];
const sleep = ms => new Promise(r => setTimeout(r, ms));
for (const url of argv) {
  const row = { url: url.replace(/^http:\/\/[^/]+\//, '') };
  for (const bin of [...bins, 'playwright']) {
    const p = await ctx.newPage(); await p.goto(url, { waitUntil: 'load', timeout: 30000 }).catch(() => {});
    const s = await ctx.newCDPSession(p); const { targetInfo } = await s.send('Target.getTargetInfo'); await s.detach();
    const m = bin === 'playwright'
      ? new Mcp('node', [new URL('./node_modules/@playwright/mcp/cli.js', import.meta.url).pathname, '--cdp-endpoint', cdp])
      : new Mcp(bin, ['mcp', '--endpoint', cdp, '--target', targetInfo.targetId]);
    const ts = [];
    try {
      await m.init();
      if (bin === 'playwright') await m.call('browser_navigate', { url });
      await sleep(1500);
      for (let i = 0; i < CALLS; i++) {
        const r = await m.call(bin === 'playwright' ? 'browser_snapshot' : 'dom_snapshot', {});
        ts.push(r.ms); await sleep(300);
      }
      row[bin.split('/').pop()] = +med(ts.slice(1)).toFixed(1);
    } catch (e) { row[bin] = 'error ' + String(e.message).slice(0, 100); }
    m.close(); await p.close();
  }
  console.log(JSON.stringify(row));
}
await browser.close().catch(() => {}); process.exit(0);
