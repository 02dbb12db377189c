// Interleaved: Playwright ariaSnapshot, direct snapshot, served snapshot
// (first call after the page loaded, then repeats), on one tab of our own.
// Usage: BIN=/path/domscope node serve-bench.mjs --cdp URL --runs 5 URL...
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); if (i < 0) return d; const v = argv[i + 1]; argv.splice(i, 2); return v; };
const CDP = opt('--cdp', 'http://127.0.0.1:9333');
const RUNS = Number(opt('--runs', '5'));
const BIN = process.env.BIN;
const med = a => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const browser = await chromium.connectOverCDP(CDP);
const ctx = browser.contexts()[0];
const page = await ctx.newPage();
await page.setViewportSize({ width: 1280, height: 800 });
const cdp = await ctx.newCDPSession(page);
const { targetInfo } = await cdp.send('Target.getTargetInfo');
const tid = targetInfo.targetId;
const base = [BIN, 'snapshot', '--endpoint', CDP, '--target', tid, '--format', 'json', '--backend-ids'];
const run = extra => { const t = performance.now(); const o = execFileSync(base[0], [...base.slice(1), ...extra], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 120000 }); return [performance.now() - t, o]; };
const strip = s => s.replace(/"timestamp":"[^"]*"/, '');
for (const url of argv) {
  await page.goto(url, { waitUntil: 'load', timeout: 30000 }).catch(() => {});
  await page.waitForTimeout(500);
  const row = { url: url.replace(/^http:\/\/[^/]+\//, '') };
  try {
    const [first, fo] = run([]);
    row.servedFirst = Math.round(first);
    const pw = [], direct = [], served = []; let dout = '', sout = '';
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now(); await page.ariaSnapshot({ mode: 'ai' }); pw.push(performance.now() - t);
      let r = run(['--direct']); direct.push(r[0]); dout = r[1];
      r = run([]); served.push(r[0]); sout = r[1];
    }
    row.pw = +med(pw).toFixed(1); row.direct = +med(direct).toFixed(1); row.servedRepeat = +med(served).toFixed(1);
    row.sameFirst = strip(fo) === strip(dout); row.sameRepeat = strip(sout) === strip(dout);
    row.servedVsPW = +(row.servedRepeat / row.pw).toFixed(2); row.directVsPW = +(row.direct / row.pw).toFixed(2);
  } catch (e) { row.error = String(e.stderr || e).slice(0, 300); }
  console.log(JSON.stringify(row));
}
await page.close().catch(() => {});
await browser.close().catch(() => {});
process.exit(0);
