function() {
  const a = [];
  for (let n = this; n; n = n.parentNode || n.host) a.push(n);
  a.push(window);
  return a;
}
