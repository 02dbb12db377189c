// Whole `domscope snapshot` process, CDP path and page path, beside
// Playwright's ariaSnapshot, same tab, interleaved; medians of RUNS.
import { chromium } from 'playwright-core';
import { execFileSync } from 'child_process';
const RUNS = +(process.env.RUNS || 5);
const BIN = process.env.BIN || '/tmp/walker-domscope';
const CDP = process.env.CDP || 'http://127.0.0.1:9444';
const b = await chromium.connectOverCDP(CDP);
const ctx = b.contexts()[0];
const page = await ctx.newPage();
const cdp = await ctx.newCDPSession(page);
const { targetInfo } = await cdp.send('Target.getTargetInfo');
const med = a => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
const run = mode => { const t = performance.now(); execFileSync(BIN, ['snapshot', '--endpoint', CDP, '--target', targetInfo.targetId, '--format', 'json', '--capture', mode], { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 28 }); return performance.now() - t; };
for (const url of process.argv.slice(2)) {
  await page.goto(url, { waitUntil: 'load' }); await page.waitForTimeout(500);
  const t = { cdp: [], page: [], pw: [] };
  await page.ariaSnapshot({ mode: 'ai' }); // Playwright's injection, once
  for (let i = 0; i < RUNS; i++) {
    t.cdp.push(run('cdp'));
    t.page.push(run('page'));
    const s = performance.now(); await page.ariaSnapshot({ mode: 'ai' }); t.pw.push(performance.now() - s);
  }
  const r = { url: url.replace(/^https?:\/\/[^/]+\//, '').replace(/\/(index|source)\.html$/, '') };
  for (const k of Object.keys(t)) r[k] = Math.round(med(t[k]));
  console.log(JSON.stringify(r));
}
await page.close(); await b.close();
