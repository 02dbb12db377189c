(() => {
  const K = Symbol.for("domscope.guard");
  const G = window[K] || (window[K] = {roots: new Set(), seen: new WeakMap(), done: new WeakSet(), last: null,
    on: new WeakSet(), scrolls: 0, loads: 0, rules: new Map(), hover: [], focus: [], active: [], changed: [],
    mo: null, dirty: true, docs: [], focused: null, href: "", blind: true});
  /*@findDocs*/
  const docs = findDocs(G, (d) => {
    if (!d.defaultView || G.on.has(d)) return;
    G.on.add(d);
    // the page's own scroll moves no box but fixed and sticky ones
    d.addEventListener("scroll", (e) => { if (e.target !== d) G.scrolls++; }, {capture: true, passive: true});
    d.addEventListener("load", () => G.loads++, {capture: true, passive: true});
    d.addEventListener("error", () => G.loads++, {capture: true, passive: true});
    if (d.fonts) d.fonts.addEventListener("loadingdone", () => G.loads++);
  });
  const scopes = docs.slice();
  for (const r of G.roots) if (r.isConnected) scopes.push(r);
  let why = "";
  /*@guardSig*/
  const {key, scroll} = sigOf(docs, scopes);
  // What dynamic states the style sheets style in a way that moves boxes.
  const harmless = /^(color|background|border-(top|right|bottom|left|block|inline)?-?(start|end)?-?color|outline|text-decoration|text-emphasis-color|text-underline|box-shadow|text-shadow|fill|stroke|caret-color|accent-color|transition|column-rule-color|scrollbar|-webkit-tap-highlight-color|-webkit-text-fill-color|-webkit-text-stroke-color|z-index|mask|clip-path|border-image)/;
  const states = {hover: /:hover/, focus: /:focus/, active: /:active/, form: /:(checked|indeterminate|valid|invalid|user-valid|user-invalid|placeholder-shown|autofill|default|in-range|out-of-range|blank)/, far: /:(has|target)\b/, always: /:(defined|state|popover-open|modal|open|closed|fullscreen|playing|paused|picture-in-picture|volume-locked|muted|seeking|stalled|buffering)\b/};
  const unsafe = {hover: false, focus: false, active: false, form: false, far: false, always: false, fixed: false};
  const scan = (rules) => {
    for (const r of rules) {
      if (r.cssRules && r.cssRules.length) scan(r.cssRules);
      if (!r.style) continue;
      if (/fixed|sticky/.test(r.style.position)) unsafe.fixed = true;
      if (!r.selectorText) continue;
      const s = r.selectorText;
      const hit = Object.keys(states).filter((k) => states[k].test(s));
      if (!hit.length) continue;
      let moves = false;
      for (let i = 0; i < r.style.length && !moves; i++) moves = !harmless.test(r.style[i]);
      if (moves) for (const k of hit) unsafe[k] = true;
    }
  };
  let blind = false; // a readable sheet styles a state no read follows
  let unreadable = false;
  for (const sc of scopes) {
    for (const sh of [...(sc.styleSheets || []), ...(sc.adoptedStyleSheets || [])]) {
      let rules = null;
      try { rules = sh.cssRules; } catch (e) {}
      if (!rules) {
        // A sheet whose load failed applies nothing (HTML's "ok status"):
        // same origin, an error status or no response at all.
        const t = sh.href && new URL(sh.href).origin === location.origin ? performance.getEntriesByName(sh.href).pop() : null;
        if (t && (t.responseStatus >= 400 || t.responseStatus === 0 && t.encodedBodySize === 0)) continue;
        // (Unknown states are tracked as if styled: hover, focus, form.
        // Those no read follows make the page blind, below.)
        for (const k in unsafe) unsafe[k] = true;
        unreadable = true;
        continue;
      }
      let u = G.rules.get(sh);
      if (!u || u.n !== rules.length) {
        const before = Object.assign({}, unsafe);
        for (const k in unsafe) unsafe[k] = false;
        scan(rules);
        u = {n: rules.length, u: Object.assign({}, unsafe)};
        Object.assign(unsafe, before);
        G.rules.set(sh, u);
      }
      for (const k in unsafe) unsafe[k] = unsafe[k] || u.u[k];
      blind = blind || u.u.always;
    }
  }
  if (docs.opaque) why = "a frame the page cannot read";
  if (G.last && G.last.scroll !== scroll) {
    for (const sc of scopes) unsafe.fixed = unsafe.fixed || !!sc.querySelector('[style*="fixed" i],[style*="sticky" i]');
    if (unsafe.fixed) why = why || "the page scrolled and has fixed or sticky boxes";
  }
  if (!G.last) why = why || "first read";
  else if (G.last.key !== key) why = why || "the page resized or changed its style sheets";
  else if (G.last.scrolls !== G.scrolls) why = why || "an element scrolled";
  else if (G.last.loads !== G.loads) why = why || "a resource or font loaded";
  for (const d of docs) {
    for (const a of d.getAnimations ? d.getAnimations() : []) {
      if (a.playState !== "finished" || !G.done.has(a)) why = why || "an animation ran";
      if (a.playState === "finished") G.done.add(a);
    }
  }
  // hover, focus, active: the chains now, against the last read's
  const chain = (sel) => { const out = []; for (const sc of scopes) for (const e of sc.querySelectorAll(sel)) out.push(e); return out; };
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  for (const [k, sel] of [["hover", ":hover"], ["focus", ":focus-within"], ["active", ":active"]]) {
    if (!unsafe[k]) { G[k] = null; continue; } // (no sheet styles it: not kept)
    const now = chain(sel);
    if (!G[k] || !same(now, G[k])) why = why || "the page styles a " + k + " state that changed";
    G[k] = now;
  }
  // :has and :target restyle far from what changed, but only when a
  // node, a tracked state or the fragment changes: a still read sees it.
  if (unsafe.far || unsafe.always) why = why || "the page's styles depend on states the guard cannot follow";
  const vals = [];
  G.changed = [];
  for (const sc of scopes) {
    for (const e of sc.querySelectorAll("input,textarea,option")) {
      const kind = e.localName === "input" ? 0 : e.localName === "textarea" ? 1 : 2;
      const v = kind === 2 ? [kind, "", e.selected] : [kind, e.value, kind === 0 && e.checked];
      const k = /*@controlKey*/;
      if (G.seen.get(e) === k) continue;
      G.seen.set(e, k);
      G.changed.push(e);
      vals.push(v);
    }
  }
  if (vals.length && unsafe.form) why = why || "the page styles a form state that changed";
  G.last = {key, scroll, scrolls: G.scrolls, loads: G.loads};
  // From now on any change to the nodes marks the page dirty (stillJS).
  // The observer lets go at the first, so a busy page pays for one.
  // A page may have broken MutationObserver: then it is never still.
  try {
    if (!G.mo) G.mo = new MutationObserver((rs, obs) => { G.dirty = true; obs.disconnect(); });
    G.mo.takeRecords();
    G.mo.disconnect();
    for (const sc of scopes) G.mo.observe(sc, {subtree: true, childList: true, attributes: true, characterData: true});
    G.dirty = false;
  } catch (e) {
    try { if (G.mo) G.mo.disconnect(); } catch (e2) {}
    G.mo = null;
  }
  G.docs = docs.slice();
  G.href = location.href;
  G.focused = /*@deepFocus*/;
  // An unreadable sheet may style a media element's states, which no
  // read follows all of. (A custom element's :state() it may style too:
  // a known gap, see design.md. Blind on every page with one and a CDN
  // sheet would leave few pages still.)
  const media = () => scopes.some((sc) => sc.querySelector("video,audio"));
  G.blind = blind || (unreadable && media()); // (frames it cannot read: stillJS)
  G.popovers = openPopovers(scopes);
  G.states = otherStates(docs, scopes);
  if (vals.length > 64) { G.changed = []; return {why: why || "many form controls changed", vals: []}; }
  // (with a why too: the refresh reads their AX facts again)
  return {why, vals};
})()
