function(names) {
  if (!this.isConnected) return null;
  const doc = this.ownerDocument, win = doc.defaultView || window;
  if (this.nodeType === 3) {
    const r = doc.createRange();
    r.selectNodeContents(this);
    const b = r.getBoundingClientRect();
    return {drawn: r.getClientRects().length > 0, box: [b.x, b.y, b.width, b.height]};
  }
  const cs = win.getComputedStyle(this);
  const drawn = this.checkVisibility ? this.checkVisibility() : cs.display !== 'none';
  const b = this.getBoundingClientRect();
  return {drawn: drawn, box: [b.x, b.y, b.width, b.height], styles: names.map((n) => cs.getPropertyValue(n))};
}
