const findDocs = (G, seen) => {
    const docs = [];
    docs.opaque = 0;
    const frames = (sc) => {
      for (const f of sc.querySelectorAll("iframe,frame")) {
        let cd = null;
        try { cd = f.contentDocument; } catch (e) {}
        if (cd) add(cd); else docs.opaque++;
      }
    };
    const add = (d) => {
      if (!d || docs.includes(d)) return;
      docs.push(d);
      seen(d);
      frames(d);
    };
    add(document);
    for (const r of G.roots) if (r.isConnected) frames(r);
    return docs;
  };
