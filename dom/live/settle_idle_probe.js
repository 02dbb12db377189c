new Promise((r) => {
  const done = () => setTimeout(r, 0);
  requestAnimationFrame(done);
  setTimeout(done, 50);
})
