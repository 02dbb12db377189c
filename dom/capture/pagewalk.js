// The in-page walker of `snapshot --capture page`. It runs in an isolated
// world (Page.createIsolatedWorld), so page scripts can neither see nor
// patch it. It is called with the frame's closed shadow roots, which CDP
// resolved for it, and returns one row per node in the order Go walks
// DOM.getDocument: a node, its shadow root, then its children. Frame
// documents and template contents are not entered.
//
// A row is [nodeType, localName, childCount] and, for elements and the
// document, [role, name, value, ignored, properties]. Roles and names come
// from dom-accessibility-api (window.__domscopeAX, bundled beside this).
//
// Privacy: a sensitive field's value never leaves this function. It gives
// no value for such a field, and a name holding one is masked here.
(function (...closed) {
  const MASK = '\u2022\u2022\u2022\u2022';
  const ax = globalThis.__domscopeAX;
  const hosts = new Map();
  for (const r of closed) if (r && r.host) hosts.set(r.host, r);
  // Chrome's names for roles the ARIA spec spells otherwise.
  const chromeRole = { img: 'image', presentation: 'none', legend: 'Legend' };
  // Chrome's roles for tags dom-accessibility-api leaves generic.
  const chromeTag = {
    p: 'paragraph', strong: 'strong', em: 'emphasis', code: 'code', mark: 'mark', time: 'time',
    sub: 'subscript', sup: 'superscript', del: 'deletion', ins: 'insertion', blockquote: 'blockquote',
    audio: 'Audio', video: 'Video', dl: 'DescriptionList',
    caption: 'caption', figcaption: 'Figcaption', hgroup: 'group', search: 'search', iframe: 'Iframe',
    label: 'LabelText', abbr: 'Abbr', canvas: 'Canvas', br: 'LineBreak',
  };
  const boring = { generic: 1, none: 1, presentation: 1 };
  // Text-ish roles Chrome names with "" whatever they hold.
  const unnamed = { LayoutTableRow: 1, LayoutTableCell: 1, Legend: 1, caption: 1, LabelText: 1, paragraph: 1, strong: 1, emphasis: 1, code: 1, mark: 1, time: 1, subscript: 1, superscript: 1, deletion: 1, insertion: 1, blockquote: 1, Abbr: 1, LineBreak: 1 };
  // The same test as dom.SensitiveAttrs.
  const sensitive = el => {
    if (el.localName === 'input' && String(el.getAttribute('type') || '').trim().toLowerCase() === 'password') return true;
    const ac = String(el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/);
    return ac.some(t => t === 'current-password' || t === 'new-password' || t === 'one-time-code' || t.startsWith('cc-'));
  };
  // A control's value through its prototype: this world's element may
  // carry the masking getter set below.
  const controls = [HTMLInputElement, HTMLTextAreaElement, HTMLSelectElement];
  const ownValue = el => {
    for (const C of controls) {
      if (el instanceof C) return Object.getOwnPropertyDescriptor(C.prototype, 'value').get.call(el);
    }
    return ('value' in el && typeof el.value === 'string') ? el.value : el.textContent;
  };
  // Every secret of the frame is known before any name is made. Names
  // trim and squeeze spaces, so the squeezed form is a secret too.
  const secrets = [];
  const collect = root => {
    for (const el of root.querySelectorAll('*')) {
      if (sensitive(el)) {
        // A select is named by its chosen options' text, not its value.
        const shown = [ownValue(el)];
        if (el instanceof HTMLSelectElement) for (const o of el.selectedOptions) shown.push(o.label, o.textContent);
        for (const v of shown) if (v) secrets.push(v, v.replace(/\s+/g, ' ').trim());
        // Names read a field's value through this world's element, which
        // now gives the mask. The page's own world is untouched.
        if (controls.some(C => el instanceof C)) {
          Object.defineProperty(el, 'value', { get: () => (ownValue(el) ? MASK : ''), configurable: true });
        }
      }
      const sr = el.shadowRoot || hosts.get(el);
      if (sr) collect(sr);
    }
  };
  collect(document);
  // Longer secrets first: a shorter one may be part of a longer one.
  secrets.sort((a, b) => b.length - a.length);
  const clean = s => {
    for (const v of secrets) if (s && v && s.includes(v)) s = s.split(v).join(MASK);
    return s;
  };
  const inSection = el => {
    // Shadow roots are crossed: Chrome looks up the flat tree.
    for (let p = el.parentElement || (el.parentNode && el.parentNode.host); p; p = p.parentElement || (p.parentNode && p.parentNode.host)) {
      if (/^(article|aside|main|nav|section)$/.test(p.localName)) return true;
    }
    return false;
  };
  // Chrome's rule for a header cell: a row's first th beside data cells
  // is its row header.
  const thRole = th => {
    const scope = (th.getAttribute('scope') || '').toLowerCase();
    if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
    if (scope === 'col' || scope === 'colgroup') return 'columnheader';
    const tr = th.parentElement;
    if (!tr || (tr.parentElement && tr.parentElement.localName === 'thead')) return 'columnheader';
    for (const c of tr.children) if (c.localName === 'td') return 'rowheader';
    return 'columnheader';
  };
  const listLevel = el => {
    let l = 0;
    for (let p = el.parentElement; p; p = p.parentElement) if (/^(ul|ol|menu)$/.test(p.localName)) l++;
    return String(Math.max(l, 1));
  };
  // A select's options are not rendered, yet Chrome lists them.
  // Image map areas have no box either; Chrome lists them as links.
  const listedWithoutBox = el => ((el.localName === 'option' || el.localName === 'optgroup') && !!el.closest('select')) ||
    (el.localName === 'area' && el.hasAttribute('href') && mapShown(el.closest('map')));
  // A map's areas are listed when a shown image uses the map.
  const maps = new Map();
  const mapShown = m => {
    if (!m || !m.name) return false;
    if (!maps.has(m)) {
      const img = [...document.images].find(i => i.useMap === '#' + m.name);
      maps.set(m, !!img && img.checkVisibility({ visibilityProperty: true }));
    }
    return maps.get(m);
  };
  const treeLevel = el => {
    let l = 1;
    for (let p = el.parentElement; p && p.getAttribute('role') !== 'tree'; p = p.parentElement) if (p.getAttribute('role') === 'group') l++;
    return String(l);
  };
  const presentational = el => /^(none|presentation)$/.test((el.getAttribute('role') || '').trim().split(/\s+/)[0]);
  // Chrome's data table test, in part: a table with header parts or
  // header cells is data; any other is for layout.
  const layoutTables = new Map();
  const layoutTable = t => {
    if (layoutTables.has(t)) return layoutTables.get(t);
    const data = t.hasAttribute('role') || t.hasAttribute('summary') || !!t.caption || !!t.tHead || !!t.tFoot ||
      !!t.querySelector(':scope > colgroup, :scope > col, th, td[headers], td[scope], td[abbr], td[axis]');
    layoutTables.set(t, !data);
    return !data;
  };
  const partRole = (el, role) => {
    const tag = el.localName;
    if (tag === 'li') {
      const list = el.parentElement;
      if (list && /^(ul|ol|menu)$/.test(list.localName) && presentational(list)) return 'none';
    }
    if (/^(tr|td|th|tbody|thead|tfoot)$/.test(tag)) {
      const t = el.closest('table');
      if (t && presentational(t)) return 'none';
      if (t && !t.hasAttribute('role') && layoutTable(t)) {
        if (tag === 'tr') return 'LayoutTableRow';
        if (tag === 'td' || tag === 'th') return 'LayoutTableCell';
      }
    }
    if (tag === 'table' && !el.hasAttribute('role') && layoutTable(el)) return 'LayoutTable';
    return role;
  };
  // A bare inline wrapper (a span with no id, role or ARIA) is left out
  // by Chrome too.
  const bare = el => {
    if (el.hasAttribute('id') || el.hasAttribute('role') || el.hasAttribute('tabindex') || el.hasAttribute('title') || el.isContentEditable) return false;
    for (const x of el.attributes) if (x.name.startsWith('aria-') || x.name.startsWith('on')) return false;
    return true;
  };
  const bareInline = el => el.namespaceURI === 'http://www.w3.org/1999/xhtml' && !el.shadowRoot && !hosts.has(el) &&
    gcs(el).getPropertyValue('display') === 'inline' && bare(el);
  const blockOfBlocks = el => {
    if (el.localName !== 'div' || el.hasAttribute('role') || el.hasAttribute('tabindex') || el.isContentEditable || el.shadowRoot || hosts.has(el)) return false;
    for (const x of el.attributes) if (x.name.startsWith('aria-') || x.name.startsWith('on')) return false;
    if (!/^(block|flow-root|list-item)$/.test(gcs(el).getPropertyValue('display'))) return false;
    let any = false;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) { if (!blank.test(c.data)) return false; continue; }
      if (c.nodeType !== 1) continue;
      const d = gcs(c).getPropertyValue('display');
      if (d === 'none') continue;
      if (d.startsWith('inline') || d === 'contents') return false;
      any = true;
    }
    return any;
  };
  const num = v => (v.trim() !== '' && isFinite(v) ? String(Number(v)) : v);
  const props = (el, role) => {
    const p = {};
    const a = n => el.getAttribute(n);
    const tag = el.localName;
    if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
      p.checked = el.indeterminate ? 'mixed' : String(el.checked);
    } else if (a('aria-checked') !== null && /^(checkbox|radio|switch|menuitemcheckbox|menuitemradio|option|treeitem)$/.test(role)) {
      p.checked = a('aria-checked');
    }
    if (a('aria-pressed') !== null && role === 'button') p.pressed = a('aria-pressed');
    if (a('aria-expanded') !== null) p.expanded = a('aria-expanded');
    else if (role === 'DisclosureTriangle') p.expanded = String(el.parentElement.open);
    if (a('aria-selected') !== null) p.selected = a('aria-selected');
    else if (tag === 'option') p.selected = String(el.selected);
    if (ax.isDisabled(el) || a('aria-disabled') === 'true') p.disabled = 'true';
    if (el === focusedEl) p.focused = 'true';
    if (el.required || a('aria-required') === 'true') p.required = 'true';
    if ((el.readOnly && /^(input|textarea)$/.test(tag)) || a('aria-readonly') === 'true') p.readonly = 'true';
    if (a('aria-invalid') && a('aria-invalid') !== 'false') p.invalid = a('aria-invalid');
    if (role === 'listitem') p.level = listLevel(el);
    if (role === 'treeitem') p.level = a('aria-level') || treeLevel(el);
    if (role === 'heading') p.level = a('aria-level') || (/^h[1-6]$/.test(tag) ? tag[1] : '2');
    if (a('aria-modal') === 'true' || (tag === 'dialog' && el.matches(':modal'))) p.modal = 'true';
    if (a('aria-multiselectable') === 'true' || (tag === 'select' && el.multiple)) p.multiselectable = 'true';
    if (a('aria-haspopup') && a('aria-haspopup') !== 'false') p.hasPopup = a('aria-haspopup') === 'true' ? 'menu' : a('aria-haspopup');
    // Chrome gives an input slider or spin button its text as valuetext,
    // never aria-valuetext, and writes the numbers as numbers.
    const ranged = tag === 'input' && (el.type === 'range' || el.type === 'number');
    // A sensitive field's value text is its value: never given.
    if (tag === 'input' && /^(slider|spinbutton)$/.test(role) && el.value !== '' && !sensitive(el)) p.valuetext = el.value;
    if (a('aria-valuemin') !== null) p.valuemin = num(a('aria-valuemin'));
    else if (ranged) p.valuemin = el.min || '0';
    if (a('aria-valuemax') !== null) p.valuemax = num(a('aria-valuemax'));
    else if (ranged) p.valuemax = el.max || (el.type === 'range' ? '100' : '0');
    if (tag === 'select' && !el.multiple && el.size <= 1) {
      if (p.expanded === undefined) p.expanded = 'false';
      if (p.hasPopup === undefined) p.hasPopup = 'menu';
    }
    if (a('aria-busy') && a('aria-busy') !== 'false') p.busy = a('aria-busy');
    if (role === 'row' && a('aria-level')) p.level = a('aria-level');
    if (role === 'combobox' && p.hasPopup === undefined) p.hasPopup = 'listbox';
    return p;
  };
  const value = (el, role) => {
    // A filled sensitive field says only that it is filled.
    if (sensitive(el)) return ownValue(el) ? MASK : '';
    const tag = el.localName;
    if (tag === 'input' && /^(checkbox|radio|button|submit|reset|image|file|hidden)$/.test(el.type)) return '';
    if (tag === 'input' || tag === 'textarea') return clean(el.value || '');
    if (tag === 'select') return clean(el.selectedOptions && el.selectedOptions[0] ? el.selectedOptions[0].label : '');
    if (/^(slider|spinbutton|progressbar|scrollbar|meter)$/.test(role)) return el.hasAttribute('aria-valuenow') ? num(el.getAttribute('aria-valuenow')) : '';
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return clean(el.innerText || '');
    if (role === 'combobox') return clean(el.textContent.replace(/\s+/g, ' ').trim()); // a scripted combobox shows its choice
    return '';
  };
  // The focused element is the deepest active one. A shadow host with
  // nothing focused inside it is not focused itself: the document is.
  let focusedEl = document.activeElement;
  for (;;) {
    const sr = focusedEl && (focusedEl.shadowRoot || hosts.get(focusedEl));
    if (!sr) break;
    focusedEl = sr.activeElement;
  }
  // Chrome says the document is focused while the page itself is not.
  if (!document.hasFocus() || focusedEl === document.body || focusedEl === document.documentElement) focusedEl = null;
  const blank = /^[ \t\n\r\f]*$/;
  // Names see pseudo-element content (CSS quotes), a <br> as a break,
  // as Chrome's do. Styles are cached across the whole walk.
  const styles = new Map();
  const gcs = (el, pseudo) => {
    if (pseudo) {
      // Chrome draws quote marks for open-quote and close-quote.
      const ps = getComputedStyle(el, pseudo);
      return { getPropertyValue: p => {
        const v = ps.getPropertyValue(p);
        // U+2063 marks the space dom-accessibility-api puts beside them.
        if (p !== 'content') return v;
        if (v === 'open-quote') return '"\u201c\u2063"';
        if (v === 'close-quote') return '"\u2063\u201d"';
        // content: "☆" / "alt" is read as its alternative text.
        const alt = /^".*"\s*\/\s*(".*")$/.exec(v);
        return alt ? alt[1] : v;
      } };
    }
    let st = styles.get(el);
    if (!st) {
      st = getComputedStyle(el);
      if (el.localName === 'br') {
        const real = st;
        st = { getPropertyValue: p => (p === 'display' ? 'block' : real.getPropertyValue(p)) };
      }
      styles.set(el, st);
    }
    return st;
  };
  const nameOpts = { computedStyleSupportsPseudoElements: true, getComputedStyle: gcs };
  const out = [];
  const hidden = new Set();
  const stack = [document];
  while (stack.length) {
    const n = stack.pop();
    const t = n.nodeType;
    const kids = [];
    let sr = null;
    if (t === 1) {
      sr = n.shadowRoot || hosts.get(n) || null;
      if (sr) kids.push(sr);
    }
    // CDP's DOM leaves out text nodes of whitespace alone.
    for (let c = n.firstChild; c; c = c.nextSibling) if (c.nodeType !== 3 || !blank.test(c.data)) kids.push(c);
    const row = [t, t === 1 ? n.localName : '', kids.length];
    if (t === 1 && !n.checkVisibility() && getComputedStyle(n).display !== 'contents' && !listedWithoutBox(n)) {
      // Chrome makes no AX node for what is not rendered (display:none).
    } else if (t === 1) {
      const daaRole = ax.getRole(n) || 'generic';
      let role = daaRole;
      role = chromeRole[role] || role;
      if (role === 'generic' && !n.hasAttribute('role') && chromeTag[n.localName]) role = chromeTag[n.localName];
      if ((n.localName === 'header' || n.localName === 'footer') && !n.hasAttribute('role') && inSection(n)) {
        role = n.localName === 'header' ? 'sectionheader' : 'sectionfooter';
      }
      if (n.localName === 'section' && role === 'region' && !n.hasAttribute('aria-label') && !n.hasAttribute('aria-labelledby') && !n.hasAttribute('title')) {
        role = 'generic';
      }
      if (n.localName === 'html' || n.localName === 'body') role = 'none';
      if (n.localName === 'svg' && role === 'generic') role = 'image';
      if (n.localName === 'input' && role === 'generic' && String(n.type).toLowerCase() === 'password') role = 'textbox';
      if (n.localName === 'summary' && role === 'button' && !n.hasAttribute('role') && n.parentElement && n.parentElement.localName === 'details') role = 'DisclosureTriangle';
      if (n.localName === 'th' && !n.hasAttribute('role')) role = thRole(n);
      if (n.localName === 'area' && n.hasAttribute('href') && role === 'generic' && listedWithoutBox(n)) role = 'link';
      // Chrome makes a clickable anchor a link, href or not.
      if (n.localName === 'a' && role === 'generic' && !n.hasAttribute('role') && n.hasAttribute('onclick')) role = 'link';
      if (!n.hasAttribute('role') && (n.localName === 'dt' || n.localName === 'dd')) role = n.localName === 'dt' ? 'DescriptionListTerm' : 'definition';
      if (role === 'cell' && !n.hasAttribute('role') && n.closest('[role=grid],[role=treegrid]')) role = 'gridcell';
      // Owned parts of a presentational list or a layout table follow it.
      if (!n.hasAttribute('role')) role = partRole(n, role);
      // Chrome leaves SVG shapes out of its tree, and plain blocks that
      // hold only blocks.
      const plain = role === 'generic' && (n.namespaceURI === 'http://www.w3.org/2000/svg' || blockOfBlocks(n) || bareInline(n));
      // Hidden subtrees are ignored, as Chrome marks them.
      const parentHidden = hidden.has(n.parentNode) || (n.parentNode && n.parentNode.nodeType === 11 && hidden.has(n.parentNode.host));
      const unseen = n.hasAttribute('inert') || n.closest('[inert]') || (!listedWithoutBox(n) && !n.checkVisibility({ visibilityProperty: true }));
      const isHidden = parentHidden || n.getAttribute('aria-hidden') === 'true' || unseen;
      if (isHidden) hidden.add(n);
      let name = '';
      let named = false;
      if (!boring[role] && !isHidden) {
        if (unnamed[role] && !n.hasAttribute('aria-label') && !n.hasAttribute('aria-labelledby')) {
          named = true;
        } else if (role === 'DescriptionListTerm' && !n.hasAttribute('aria-label') && !n.hasAttribute('aria-labelledby')) {
          name = clean(n.textContent.replace(/\s+/g, ' ').trim()); // Chrome names a term by its text
          named = true;
        } else if (role === 'row' && !n.hasAttribute('aria-label') && !n.hasAttribute('aria-labelledby') && !n.hasAttribute('title') && !n.closest('[role=grid],[role=treegrid]')) {
          named = true; // Chrome names a table's rows, not a grid's, with "".
        } else {
          try {
            name = clean(ax.computeAccessibleName(n, nameOpts).replace(/\u2063 ?| ?\u2063/g, ''));
            // Where Chrome's role is not the library's, it may not name
            // the element from its content: the text or alt does.
            if (name === '' && role !== daaRole && /^(link|button|DisclosureTriangle)$/.test(role)) {
              name = clean((n.localName === 'area' ? n.getAttribute('alt') || '' : n.textContent).replace(/\s+/g, ' ').trim());
            }
            named = true;
          } catch (e) { name = ''; }
        }
      }
      // Chrome makes no AX node for what is invisible or inert.
      if (!unseen) row.push(role, named ? name : null, isHidden ? '' : value(n, role), isHidden || plain || role === 'none', isHidden ? {} : props(n, role));
    } else if (t === 9) {
      const p = {};
      if (window.top === window && (!focusedEl || n.hasFocus())) p.focused = 'true'; // Chrome marks both, in the top frame
      if (n.readyState !== 'complete') p.busy = '1'; // as Chrome says of a loading document
      row.push('RootWebArea', clean(n.title || ''), '', false, p);
    }
    out.push(row);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return JSON.stringify(out);
})
