function(hit) {
  const t = this.nodeType === 3 ? this.parentNode : this;
  const up = (n) => {
    if (n.assignedSlot) return n.assignedSlot;
    if (n.parentNode) return n.parentNode;
    if (n.host) return n.host;
    if (n.defaultView && n.defaultView.frameElement) return n.defaultView.frameElement;
    return null;
  };
  const within = (n, anc) => { for (let p = n; p; p = up(p)) if (p === anc) return true; return false; };
  let inside = within(hit, t);
  if (!inside && t.labels) for (const l of t.labels) if (within(hit, l)) inside = true;
  if (!inside && t.control && within(hit, t.control)) inside = true;
  let el = hit.nodeType === 1 ? hit : (hit.parentElement || hit);
  let d = (el.localName || el.nodeName || '?');
  if (el.id) d += '#' + el.id;
  if (el.classList) d += Array.from(el.classList).slice(0, 3).map(c => '.' + c).join('');
  const name = (el.getAttribute && (el.getAttribute('aria-label') || '')) || (el.innerText || el.textContent || '').trim();
  if (name) d += ' "' + name.replace(/\s+/g, ' ').slice(0, 60) + '"';
  return {inside, desc: d};
}
