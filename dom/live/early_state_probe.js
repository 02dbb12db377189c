(() => {
  let h = 7, n = 0;
  const mix = (s) => { s = String(s); for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0; h = (Math.imul(h, 31) + 1) | 0; };
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      n++;
      if (el.shadowRoot) visit(el.shadowRoot);
      switch (el.tagName) {
      case 'INPUT': mix(el.value); mix(el.checked); mix(el.indeterminate); break;
      case 'TEXTAREA': case 'SELECT': mix(el.value); break;
      case 'OPTION': mix(el.selected); break;
      case 'IFRAME': case 'FRAME': { let d = null; try { d = el.contentDocument; } catch (e) {} if (d) visit(d); }
      }
    }
  };
  visit(document);
  let a = document.activeElement, path = '';
  while (a) {
    path += a.tagName + (a.id || '') + '|';
    let next = a.shadowRoot && a.shadowRoot.activeElement;
    if (!next) { try { next = a.contentDocument && a.contentDocument.activeElement; } catch (e) {} }
    a = next;
  }
  mix(path); mix(n); mix(scrollX); mix(scrollY);
  return h;
})()
