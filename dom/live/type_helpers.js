const textKind = (el) => {
    const tag = el.localName;
    if (tag === 'input') return 'input';
    if (tag === 'textarea') return 'textarea';
    if (tag === 'select') return 'select';
    if (el.isContentEditable) return 'editable';
    return '';
  };
  const typingTarget = (el) => {
    if (textKind(el)) return el;
    let a = el.ownerDocument.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    if (!a || a === el || !textKind(a)) return null;
    for (let n = a; n; n = n.parentNode || n.host) if (n === el) return a;
    return null;
  };
