async function (wait) {
  // one round: scroll to the end, then wait up to `wait` ms for the
  // page to grow (a feed loading more)
  const se = document.scrollingElement || document.documentElement;
  const y = window.scrollY, h0 = se.scrollHeight;
  window.scrollTo(window.scrollX, h0);
  const t0 = performance.now();
  while (performance.now() - t0 < wait) {
    await new Promise((r) => setTimeout(r, 100));
    if (se.scrollHeight > h0) break;
  }
  return [y, h0, se.scrollHeight];
}
