(() => {
    let a = document.activeElement;
    for (;;) {
      if (a && a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
      let d = null;
      try { d = a && a.contentDocument; } catch (e) {}
      if (d && d.activeElement) { a = d.activeElement; continue; }
      return a;
    }
  })()
