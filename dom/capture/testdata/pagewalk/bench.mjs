// Same tab, same run: (a) CDP reads, (b) in-page walker, (c) walker + roles/names,
// (d) Playwright ariaSnapshot. Medians of RUNS.
import { chromium } from 'playwright-core';
import fs from 'fs';
const RUNS = +(process.env.RUNS || 5);
const b = await chromium.connectOverCDP(process.env.CDP || 'http://127.0.0.1:9444');
const ctx = b.contexts()[0];
const page = ctx.pages()[0] || await ctx.newPage();
const cdp = await ctx.newCDPSession(page);
const daa = fs.readFileSync(new URL('./daa.js', import.meta.url), 'utf8');
const walker = fs.readFileSync(new URL('./walker.js', import.meta.url), 'utf8');
// PAGEWALK_DIR is dom/capture of the checkout (the product's walker).
const pwDir = process.env.PAGEWALK_DIR || new URL('../../', import.meta.url).pathname;
const prodAX = fs.readFileSync(pwDir + '/pagewalk_ax.js', 'utf8');
const prodJS = fs.readFileSync(pwDir + '/pagewalk.js', 'utf8');
const prodFn = 'function(...c){' + prodAX + '\nreturn (' + prodJS + ')(...c);}';
const med = a => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
const STY = ['display', 'visibility', 'opacity', 'cursor', 'pointer-events'];
await cdp.send('Runtime.enable'); await cdp.send('DOM.enable'); await cdp.send('Accessibility.enable');
for (const url of process.argv.slice(2)) {
  await page.goto(url, { waitUntil: 'load' }); await page.waitForTimeout(500);
  // isolated world: page scripts cannot see or patch our code.
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const { executionContextId: ctxId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'walker' });
  await cdp.send('Runtime.evaluate', { expression: daa + ';' + walker + ';0', contextId: ctxId });
  const ev = mode => cdp.send('Runtime.evaluate', { expression: `__walk(${mode})`, contextId: ctxId, returnByValue: true });
  const steps = {
    getDocument: () => cdp.send('DOM.getDocument', { depth: -1, pierce: true }),
    getFullAXTree: () => cdp.send('Accessibility.getFullAXTree', {}),
    captureSnapshot: () => cdp.send('DOMSnapshot.captureSnapshot', { computedStyles: STY }),
    walkB: () => ev(0),
    walkC: () => ev(1),
    walkC2: () => ev(2),
    rolesOnly: () => ev(3),
    pagewalk: () => cdp.send('Runtime.callFunctionOn', { functionDeclaration: prodFn, executionContextId: ctxId, returnByValue: true, arguments: [] }),
    playwright: () => page.ariaSnapshot({ mode: 'ai' }),
  };
  const times = {}; const kb = {};
  for (let i = 0; i < RUNS; i++) {
    for (const [k, f] of Object.entries(steps)) {
      const s = performance.now(); const r = await f(); const ms = performance.now() - s;
      (times[k] ||= []).push(ms);
      if (i === 0) kb[k] = Math.round((typeof r === 'string' ? r.length : JSON.stringify(r).length) / 1024);
    }
  }
  const row = { page: url.replace(/^https?:\/\/[^/]+\//, '').replace(/\/(index|source)\.html$/, '') };
  for (const k of Object.keys(steps)) row[k] = Math.round(med(times[k]));
  row.a = row.getDocument + row.getFullAXTree + row.captureSnapshot;
  row.pagePath = row.getDocument + row.captureSnapshot + row.pagewalk;
  row.bPlusDoc = row.getDocument + row.walkB; row.cPlusDoc = row.getDocument + row.walkC2;
  row.kb = kb;
  console.log(JSON.stringify(row));
}
await b.close();
