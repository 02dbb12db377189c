function(keys, ids, ...roots) {
  const G = window[Symbol.for("domscope.guard")];
  if (!G) return false;
  G.ids = G.ids || new Set();
  let ok = true;
  roots.forEach((r, i) => {
    if (!r || G.roots.has(r)) return;
    G.roots.add(r);
    G.ids.add(ids[i]);
    G.dirty = true; // not watched since the guard last ran
    const els = r.querySelectorAll("input,textarea,option");
    if (els.length !== keys[i].length) { ok = false; return; }
    els.forEach((e, k) => G.seen.set(e, keys[i][k]));
  });
  return ok;
}
