package domtest

import (
	"encoding/json"
	"sort"
	"testing"

	"domscope/dom"
)

// DeepJS defines deep(sel): querySelectorAll through open shadow roots.
// So the page's own state can be read in web-component apps too.
const DeepJS = `const deep = (sel, root = document) => {
  const out = [...root.querySelectorAll(sel)];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) out.push(...deep(sel, el.shadowRoot));
  return out;
};`

// JSQuote quotes s as a JavaScript string literal.
func JSQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// PageTodos returns the titles of the todo items a TodoMVC page shows,
// sorted. Those are the rendered items matching itemCSS, each with a
// title matching titleCSS. The page itself reads them, through open
// shadow roots.
func PageTodos(t *testing.T, p dom.Session, itemCSS, titleCSS string) []string {
	t.Helper()
	v := EvalJS(t, p, `(() => { `+DeepJS+` return deep(`+JSQuote(itemCSS)+`).filter(li => li.getClientRects().length > 0 && li.querySelector(`+JSQuote(titleCSS)+`)).map(li => li.querySelector(`+JSQuote(titleCSS)+`).textContent.trim()); })()`)
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	sort.Strings(out) // some builds list the newest first
	return out
}
