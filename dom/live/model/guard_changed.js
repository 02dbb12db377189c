window[Symbol.for("domscope.guard")].changed
