new Promise((r) => {
  // A hidden tab runs no frames and holds timers for a second or more,
  // its own as well: a posted task is its next turn.
  if (document.visibilityState === 'hidden') {
    const c = new MessageChannel();
    c.port1.onmessage = () => r();
    c.port2.postMessage(0);
    return;
  }
  const done = () => setTimeout(r, 0);
  requestAnimationFrame(done);
  setTimeout(done, 50);
})
