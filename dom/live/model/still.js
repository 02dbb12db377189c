(() => {
  const G = window[Symbol.for("domscope.guard")];
  if (!G || !G.last || !G.mo || G.dirty || G.blind) return -1;
  if (G.mo.takeRecords().length) { G.dirty = true; G.mo.disconnect(); return -1; }
  if (location.href !== G.href) return -1;
  /*@findDocs*/
  const docs = findDocs(G, () => {});
  const opaque = docs.opaque;
  if (docs.length !== G.docs.length || docs.some((d, i) => d !== G.docs[i])) return -1;
  const scopes = docs.slice();
  for (const r of G.roots) if (r.isConnected) scopes.push(r);
  /*@guardSig*/
  const now = sigOf(docs, scopes);
  if (now.key !== G.last.key || now.scroll !== G.last.scroll || G.scrolls !== G.last.scrolls || G.loads !== G.last.loads) return -1;
  for (const d of docs) {
    for (const a of d.getAnimations ? d.getAnimations() : []) if (a.playState !== "finished" || !G.done.has(a)) return -1;
  }
  const chain = (sel) => { const out = []; for (const sc of scopes) for (const e of sc.querySelectorAll(sel)) out.push(e); return out; };
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  for (const [k, sel] of [["hover", ":hover"], ["focus", ":focus-within"], ["active", ":active"]]) {
    if (G[k] && !same(chain(sel), G[k])) return -1;
  }
  if (!G.popovers || !same(openPopovers(scopes), G.popovers) || otherStates(docs, scopes) !== G.states) return -1;
  if (/*@deepFocus*/ !== G.focused) return -1;
  for (const sc of scopes) {
    for (const e of sc.querySelectorAll("input,textarea,option")) {
      if (G.seen.get(e) !== /*@controlKey*/) return -1;
    }
  }
  return opaque;
})()
