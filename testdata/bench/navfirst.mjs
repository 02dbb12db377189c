// navfirst.mjs: the first served `snapshot` of each new document, --wait ms
// after Playwright's goto resolved (an agent's think time), beside
// Playwright's ariaSnapshot of the same document. `domscope serve` must be
// running on --cdp; the tab is served from the first page on.
// Usage: BIN=/path/domscope node navfirst.mjs --cdp URL --runs 5 --wait 1000 URL...
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); if (i < 0) return d; const v = argv[i + 1]; argv.splice(i, 2); return v; };
const CDP = opt('--cdp', 'http://127.0.0.1:9333');
const RUNS = Number(opt('--runs', '5'));
const WAIT = Number(opt('--wait', '1000'));
const BIN = process.env.BIN;
const med = a => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const browser = await chromium.connectOverCDP(CDP);
const ctx = browser.contexts()[0];
const page = await ctx.newPage();
await page.setViewportSize({ width: 1280, height: 800 });
const cdp = await ctx.newCDPSession(page);
const { targetInfo } = await cdp.send('Target.getTargetInfo');
const base = [BIN, 'snapshot', '--endpoint', CDP, '--target', targetInfo.targetId, '--format', 'json', '--backend-ids'];
const run = extra => { const t = performance.now(); const o = execFileSync(base[0], [...base.slice(1), ...extra], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 120000 }); return [performance.now() - t, o]; };
const strip = s => s.replace(/"timestamp":"[^"]*"/, '');
run([]); // the tab is served from here on
for (const url of argv) {
  const row = { url: url.replace(/^http:\/\/[^/]+\//, ''), wait: WAIT };
  try {
    const pw = [], served = []; let same = true;
    for (let i = 0; i < RUNS; i++) {
      await page.goto(url, { waitUntil: 'load', timeout: 30000 }).catch(() => {});
      await page.waitForTimeout(WAIT);
      // Alternate who reads first.
      const pwRead = async () => { const t = performance.now(); await page.ariaSnapshot({ mode: 'ai' }); pw.push(performance.now() - t); };
      if (i % 2) await pwRead();
      const [ms, out] = run([]);
      served.push(ms);
      if (i % 2 === 0) await pwRead();
      if (i === RUNS - 1) same = strip(out) === strip(run(['--direct'])[1]);
    }
    row.pw = +med(pw).toFixed(1); row.servedFirst = +med(served).toFixed(1);
    row.ratio = +(row.servedFirst / row.pw).toFixed(2); row.sameAsDirect = same;
  } catch (e) { row.error = String(e.stderr || e).slice(0, 300); }
  console.log(JSON.stringify(row));
}
await page.close().catch(() => {});
await browser.close().catch(() => {});
process.exit(0);
