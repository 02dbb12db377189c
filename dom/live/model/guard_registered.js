(() => { const G = window[Symbol.for("domscope.guard")]; return G && G.ids ? [...G.ids] : []; })()
