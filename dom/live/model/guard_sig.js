const sigOf = (docs, scopes) => {
    const sig = [], scroll = [];
    for (const d of docs) {
      const w = d.defaultView;
      if (!w) continue;
      const e = d.documentElement;
      sig.push(w.innerWidth, w.innerHeight, e ? e.scrollWidth : 0, e ? e.scrollHeight : 0, d.fonts ? d.fonts.status : "", w.location.hash);
      scroll.push(w.scrollX, w.scrollY);
    }
    for (const sc of scopes) {
      const sheets = [...(sc.styleSheets || []), ...(sc.adoptedStyleSheets || [])];
      if (sc.nodeType !== 9 && !sheets.length) continue; // a shadow root without sheets
      sig.push(sheets.length);
      for (const sh of sheets) {
        let rules = null;
        try { rules = sh.cssRules; } catch (e) {}
        sig.push(sh.disabled ? 1 : 0, sh.media ? sh.media.mediaText : "", rules ? rules.length : -1);
      }
    }
    return {key: JSON.stringify(sig), scroll: JSON.stringify(scroll)};
  };
  // A popover opens and closes with no DOM change.
  const openPopovers = (scopes) => {
    const out = [];
    try { for (const sc of scopes) for (const e of sc.querySelectorAll(":popover-open")) out.push(e); } catch (e) {}
    return out;
  };
  // Other states a style sheet the page cannot read may style: custom
  // elements defined, full screen, media playing.
  const otherStates = (docs, scopes) => {
    const k = [];
    for (const d of docs) k.push(d.fullscreenElement ? 1 : 0);
    for (const sc of scopes) {
      k.push(sc.querySelectorAll(":not(:defined)").length);
      for (const m of sc.querySelectorAll("video,audio")) k.push(m.paused ? 0 : 1, m.ended ? 1 : 0);
    }
    return k.join(",");
  };
