function(names, max, ...roots) {
  const out = [];
  const blank = /^[ \t\n\r\f\v\u1680\u2000-\u200a\u2028\u2029\u205f\u3000]*$/;
  let count = 0;
  for (const root of roots) {
    const list = [];
    out.push(list);
    if (!root || !root.isConnected) { list.push("gone"); continue; }
    const doc = root.ownerDocument, win = doc.defaultView;
    if (!win || win !== window) return "frame";
    const sx = win.scrollX, sy = win.scrollY;
    const range = doc.createRange();
    const stack = [root];
    while (stack.length) {
      const x = stack.pop();
      if (++count > max) return "large";
      if (x.nodeType === 3) {
        if (blank.test(x.data)) continue; // CDP's DOM leaves these out
        range.selectNodeContents(x);
        if (range.getClientRects().length === 0) { list.push([3, 0]); continue; }
        const b = range.getBoundingClientRect();
        list.push([3, 1, b.x + sx, b.y + sy, b.width, b.height]);
        continue;
      }
      if (x.nodeType !== 1) continue;
      // SVG boxes are drawn and measured by rules of their own
      if (x.namespaceURI !== "http://www.w3.org/1999/xhtml") return "svg";
      const name = x.localName;
      const cs = win.getComputedStyle(x);
      const drawn = x.checkVisibility ? x.checkVisibility() : cs.display !== "none";
      const b = x.getBoundingClientRect();
      const e = [1, name, drawn ? 1 : 0, b.x + sx, b.y + sy, b.width, b.height, cs.float !== "none" ? 1 : 0];
      for (const n of names) e.push(cs.getPropertyValue(n));
      list.push(e);
      if (name === "template") continue;
      for (let c = x.lastChild; c; c = c.previousSibling) stack.push(c);
    }
  }
  return out;
}
