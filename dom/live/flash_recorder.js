// Runs in domscope's isolated world of each document. When an element
// that came lately goes, it tells domscope how long it lived, by the
// page's clock: on a loaded machine the DOM events reach domscope in
// bursts, and their times say a 100 ms toast lived 30. For an element
// Chrome's events sent bare (more than one child, or one element), it
// sends the subtree too: the ask for its children can come after it
// went.
(() => {
  if (globalThis.__domscopeFlashes || typeof globalThis.domscopeFlash !== 'function') return;
  globalThis.__domscopeFlashes = true;
  const send = globalThis.domscopeFlash;
  const born = new WeakMap();
  // Only what lived less than life ms; at most perSecond sends a second,
  // each of at most maxNodes nodes: a page that churns costs little.
  const life = 10000, perSecond = 20, maxNodes = 300, maxText = 500;
  let tokens = perSecond, filled = performance.now();
  const tree = (n, left) => {
    if (left.n-- <= 0) return null;
    if (n.nodeType === 3) return {nodeType: 3, nodeName: '#text', nodeValue: n.nodeValue.slice(0, maxText)};
    if (n.nodeType !== 1 && n.nodeType !== 11) return null;
    const out = {nodeType: n.nodeType, nodeName: n.nodeName, localName: n.localName || '', attributes: [], children: []};
    if (n.nodeType === 1) {
      for (const a of n.attributes) if (a.name !== 'value') out.attributes.push(a.name, a.value.slice(0, maxText));
      if (n.shadowRoot) {
        const r = tree(n.shadowRoot, left);
        if (r) out.shadowRoots = [r];
      }
    }
    for (const c of n.childNodes) {
      const t = tree(c, left);
      if (t) out.children.push(t);
    }
    return out;
  };
  // An element with no child or one text came whole in Chrome's event.
  const whole = n => n.childNodes.length === 0 || (n.childNodes.length === 1 && n.firstChild.nodeType === 3);
  const watch = root => new MutationObserver(records => {
    const now = performance.now();
    const gone = [];
    for (const r of records) {
      for (const n of r.addedNodes) if (n.nodeType === 1) born.set(n, now);
      for (const n of r.removedNodes) {
        const at = born.get(n);
        if (at === undefined || now - at > life) continue;
        born.delete(n);
        gone.push([n, now - at]);
      }
    }
    tokens = Math.min(perSecond, tokens + (now - filled) * perSecond / 1000);
    filled = now;
    const sent = [];
    for (const [n, ms] of gone) {
      if (tokens < 1) break;
      tokens--;
      // whole: its tag and id are enough to know it by.
      const t = whole(n) && !n.shadowRoot
        ? {nodeType: 1, nodeName: n.nodeName, localName: n.localName, attributes: n.id ? ['id', n.id] : []}
        : tree(n, {n: maxNodes});
      sent.push({ms: Math.round(ms), whole: whole(n) && !n.shadowRoot, node: t});
    }
    if (sent.length) send(JSON.stringify(sent));
  }).observe(root, {childList: true, subtree: true});
  watch(document);
})();
