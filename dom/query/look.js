function (a) {
  // steps from document: an element child's index, "s" a shadow root,
  // "f" a frame's document
  const walk = (path) => {
    let x = document;
    for (const st of path ? path.split("/") : []) {
      if (!x) return null;
      if (st === "s") x = x.shadowRoot || null;
      else if (st === "f") { try { x = x.contentDocument || null; } catch (e) { return null; } }
      else x = x.children ? x.children[+st] || null : null;
    }
    return x && x.nodeType === 1 ? x : null;
  };
  const pathOf = (el) => {
    const out = [];
    let x = el;
    while (x !== document) {
      const p = x.parentNode;
      if (!p || !p.children) return null;
      out.push(Array.prototype.indexOf.call(p.children, x));
      if (p === document) break;
      if (p.nodeType === 11) { if (!p.host) return null; out.push("s"); x = p.host; continue; }
      if (p.nodeType === 9) {
        const fe = p.defaultView && p.defaultView.frameElement;
        if (!fe) return null;
        out.push("f"); x = fe; continue;
      }
      x = p;
    }
    return out.reverse().join("/");
  };
  const de = document.documentElement;
  const se = document.scrollingElement || de;
  const std = document.compatMode === "CSS1Compat";
  const vw = std && de ? de.clientWidth : window.innerWidth;
  const vh = std && de ? de.clientHeight : window.innerHeight;
  const sx = window.scrollX, sy = window.scrollY;
  const out = {page: null, scroll: [], hits: [], paths: []};
  if (se) {
    const cs = getComputedStyle(se);
    out.page = [sx, sy, se.scrollWidth, se.scrollHeight, vw, vh, cs.overflowX, cs.overflowY];
  }
  for (const p of a.scroll) {
    const el = walk(p);
    if (!el) { out.scroll.push(null); continue; }
    const cs = getComputedStyle(el);
    out.scroll.push([el.localName, el.scrollLeft, el.scrollTop, el.scrollWidth, el.scrollHeight, el.clientWidth, el.clientHeight, cs.overflowX, cs.overflowY]);
  }
  const seen = new Map();
  const deep = (x, y) => {
    let h = document.elementFromPoint(x, y);
    while (h && h.shadowRoot) {
      const d = h.shadowRoot.elementFromPoint(x, y);
      if (!d || d === h) break;
      h = d;
    }
    return h;
  };
  for (const t of a.hit) {
    const [bx, by, bw, bh] = t;
    const cx = bx + bw / 2, cy = by + bh / 2;
    const pts = [[cx, cy], [bx + 2, by + 2], [bx + bw - 2, by + 2], [bx + 2, by + bh - 2], [bx + bw - 2, by + bh - 2]];
    const row = [];
    for (const [px, py] of pts) {
      const x = px - sx, y = py - sy;
      if (x < 0 || y < 0 || x >= vw || y >= vh) { row.push(-1); continue; }
      const h = deep(x, y);
      if (!h) { row.push(-2); continue; }
      if (!seen.has(h)) {
        seen.set(h, out.paths.length);
        out.paths.push([pathOf(h), h.localName]);
      }
      row.push(seen.get(h));
    }
    out.hits.push(row);
  }
  return out;
}
