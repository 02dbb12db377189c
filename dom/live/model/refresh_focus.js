(() => {
  const a = /*@deepFocus*/;
  const G = window[Symbol.for("domscope.guard")];
  if (G) G.focused = a;
  return a;
})()
