// warm.mjs: first dom_snapshot after an agent's think time (--wait ms after init), binaries interleaved.
import { Mcp } from './mcp.mjs';
import { chromium } from 'playwright-core';
const arg = (k, d) => { const i = process.argv.indexOf(k); return i > 0 ? process.argv[i + 1] : d; };
const cdp = arg('--cdp', 'http://127.0.0.1:9444'), wait = Number(arg('--wait', '1500')), bins = arg('--bins').split(',');
const urls = process.argv.slice(2).filter(u => u.startsWith('http://127.0.0.1:8000'));
const browser = await chromium.connectOverCDP(cdp); const ctx = browser.contexts()[0];
for (const url of urls) for (const bin of bins) {
  const p = await ctx.newPage(); await p.setViewportSize({ width: 1280, height: 800 }); await p.goto(url); await p.waitForTimeout(300);
  const s = await ctx.newCDPSession(p); const { targetInfo } = await s.send('Target.getTargetInfo'); await s.detach();
  const m = new Mcp(bin, ['mcp', '--endpoint', cdp, '--target', targetInfo.targetId]); await m.init();
  await new Promise(r => setTimeout(r, wait));
  const v = await m.call('dom_snapshot', {});
  const t = performance.now(); await p.ariaSnapshot({ mode: 'ai' }); const pw = performance.now() - t;
  console.log(JSON.stringify({ url: url.replace(/.*8000\//, ''), bin, firstMs: Math.round(v.ms), pwMs: Math.round(pw) }));
  m.close(); await p.close();
}
await browser.close(); process.exit(0);
