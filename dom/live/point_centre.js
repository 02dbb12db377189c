function() {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (el) el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
}
