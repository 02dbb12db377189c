package flatten

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"domscope/dom"
)

// The query view (issue 33, seed 003 §3.6.2 DOM RAG) ranks the page's
// chunks by BM25 relevance to a few words and returns the best within a
// token budget, in page order, each under its path of landmarks and
// headings. A chunk is a list item, a table row, an article, a form, a
// dialog, a landmark or named region, or the lines under a heading that
// none of those holds. No model, no network: words only.

// DefaultQueryTokens is the query view's budget when none is given.
const DefaultQueryTokens = 2000

// chunkRoles start a chunk of their own.
var chunkRoles = map[string]bool{
	"listitem": true, "row": true, "article": true, "form": true, "dialog": true, "alertdialog": true,
	"navigation": true, "banner": true, "contentinfo": true, "complementary": true, "search": true,
	"region": true, "group": true,
}

// itemChunk are chunks of one item: a heading inside one names it, not
// the chunks after it.
var itemChunk = map[string]bool{"listitem": true, "row": true, "article": true}

// minRelevance is the share of the best chunk's score a chunk needs to
// be shown: words every chunk has (the site's name) do not carry one.
const minRelevance = 0.35

// pathRoles name a chunk's place: landmarks and regions.
var pathRoles = map[string]bool{
	"navigation": true, "main": true, "banner": true, "contentinfo": true, "complementary": true,
	"search": true, "region": true, "form": true, "dialog": true, "alertdialog": true, "table": true, "list": true,
}

// Chunk is one ranked part of the page.
type Chunk struct {
	Path  string // "main › h2 \"Cameras\""
	Lines []Line
	Score float64
	Order int // place in the page
	role  string
	words map[string]int
	n     int             // word count
	flat  strings.Builder // its words in order, for phrases
	names []string        // its headings' and controls' names, as words
	heads []string        // its headings' names, as words
}

// QueryChunks splits sd in chunks and scores them against query; the
// result is in page order.
func QueryChunks(sd *dom.SerializedDom, query string) []*Chunk {
	var chunks []*Chunk
	type frame struct {
		n     *dom.SerializedNode
		depth int
		chunk *Chunk
		path  []string
	}
	heading := ""
	sect := map[*Chunk]*Chunk{} // the section each chunk's lines go to now
	newChunk := func(path []string) *Chunk {
		p := append(append([]string(nil), path...), heading)
		c := &Chunk{Path: strings.Join(compactStrings(p), " › "), Order: len(chunks), words: map[string]int{}}
		chunks = append(chunks, c)
		return c
	}
	stack := []frame{}
	for i := len(sd.Nodes) - 1; i >= 0; i-- {
		stack = append(stack, frame{n: sd.Nodes[i]})
	}
	var b strings.Builder
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := fr.n
		if n == nil {
			continue
		}
		path := fr.path
		owner := fr.chunk // the chunk of the item, form or landmark n is in
		if chunkRoles[n.Role] {
			if pathRoles[n.Role] {
				path = append(append([]string(nil), path...), pathName(n))
			}
			owner = newChunk(fr.path)
			owner.role = n.Role
		} else if pathRoles[n.Role] {
			path = append(append([]string(nil), path...), pathName(n))
		}
		if n.Role == "heading" && (owner == nil || !itemChunk[owner.role]) {
			// a heading starts a section of what holds it
			heading = "h" + strconv.Itoa(max(1, min(n.Level, 9))) + " " + quote(dom.Clip(headingText(n), foldLabelLen))
			sect[owner] = newChunk(path)
		}
		c := owner
		if sc := sect[owner]; sc != nil {
			c = sc
		}
		if c == nil {
			c = newChunk(path)
			sect[nil] = c
		}
		b.Reset()
		writeTextLine(&b, n, fr.depth)
		c.Lines = append(c.Lines, Line{ID: n.ID, Text: strings.TrimSuffix(b.String(), "\n")})
		for _, w := range words(n.Name + " " + n.Text + " " + n.Placeholder + " " + n.Value + " " + n.Context) {
			c.words[w]++
			c.n++
			c.flat.WriteString(" " + w)
		}
		c.flat.WriteString(" |")
		if n.Role != "text" {
			nm := n.Name
			if nm == "" {
				nm = n.Text
			}
			if ws := words(nm); len(ws) > 0 {
				if n.Role == "heading" {
					c.heads = append(c.heads, strings.Join(ws, " "))
				}
				c.names = append(c.names, strings.Join(ws, " "))
				for _, w := range ws {
					c.words[w]++ // a name says more than the text around it
				}
			}
		}
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, frame{n: n.Children[i], depth: fr.depth + 1, chunk: owner, path: path})
		}
	}
	score(chunks, words(query))
	return chunks
}

func pathName(n *dom.SerializedNode) string {
	s := textRole(n)
	if n.Name != "" {
		s += " " + quote(dom.Clip(n.Name, foldLabelLen))
	}
	return s
}

func compactStrings(l []string) []string {
	out := l[:0]
	for _, s := range l {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// words splits s in lower-case words of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// score gives each chunk its BM25 score for the query's words (k1 1.2,
// b 0.75).
func score(chunks []*Chunk, q []string) {
	if len(chunks) == 0 || len(q) == 0 {
		return
	}
	df := map[string]int{}
	total := 0
	for _, c := range chunks {
		total += c.n
		for w := range c.words {
			df[w]++
		}
	}
	avg := math.Max(1, float64(total)/float64(len(chunks)))
	N := float64(len(chunks))
	seen := map[string]bool{}
	for _, w := range q {
		if seen[w] {
			continue
		}
		seen[w] = true
		idf := math.Log(1 + (N-float64(df[w])+0.5)/(float64(df[w])+0.5))
		for _, c := range chunks {
			tf := float64(c.words[w])
			if tf == 0 {
				continue
			}
			c.Score += idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*float64(c.n)/avg))
		}
	}
	// a heading or control named by the words themselves is what was
	// looked for
	want := strings.Join(q, " ")
	for _, c := range chunks {
		for _, nm := range c.names {
			if nm == want {
				c.Score *= 3
				break
			}
		}
		for _, nm := range c.heads {
			if nm == want {
				c.Score *= 4 // the section the words name
				break
			}
		}
	}
	// the words as a phrase, in one name or text, count double
	if len(q) > 1 {
		phrase := " " + strings.Join(q, " ") + " "
		for _, c := range chunks {
			if strings.Contains(c.flat.String()+" ", phrase) {
				c.Score *= 2
			}
		}
	}
}

// QueryText is the query view of sd: the best chunks for query within
// maxTokens, each under its path: the best first, the others in page
// order; the last line says how many chunks were left out. Ranked
// returns the chunks kept, best first.
func QueryText(sd *dom.SerializedDom, query string, maxTokens int) (text string, ranked []*Chunk) {
	lines, ranked := QueryLines(sd, query, maxTokens)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String(), ranked
}

// QueryLines is QueryText's lines, each with its node's ID ("" for a
// chunk's path line and the last line): the UI's flat pane shows them.
func QueryLines(sd *dom.SerializedDom, query string, maxTokens int) (lines []Line, ranked []*Chunk) {
	if maxTokens <= 0 {
		maxTokens = DefaultQueryTokens
	}
	chunks := QueryChunks(sd, query)
	byScore := make([]*Chunk, 0, len(chunks))
	for _, c := range chunks {
		if c.Score > 0 {
			byScore = append(byScore, c)
		}
	}
	sort.SliceStable(byScore, func(i, j int) bool { return byScore[i].Score > byScore[j].Score })
	used := 0
	keep := map[*Chunk]bool{}
	for _, c := range byScore {
		if c.Score < minRelevance*byScore[0].Score {
			break
		}
		t := CountTokens(chunkText(c))
		if used+t > maxTokens {
			if len(keep) > 0 {
				break
			}
			t = cutChunk(c, maxTokens) // the best, too big: its start
		}
		used += t
		keep[c] = true
		ranked = append(ranked, c)
	}
	// the best first, where an agent looks first; the rest in page order
	if len(ranked) > 0 {
		lines = chunkLines(lines, ranked[0])
	}
	for _, c := range chunks {
		if keep[c] && c != ranked[0] {
			lines = chunkLines(lines, c)
		}
	}
	left := len(chunks) - len(keep)
	lines = append(lines, Line{Text: "… " + strconv.Itoa(left) + " more chunks left out (" + strconv.Itoa(len(byScore)-len(keep)) + " of them match): a longer query, a larger maxTokens, or the whole view"})
	return lines, ranked
}

// chunkText is a chunk's path line and its lines, indented from the
// chunk's own depth.
func chunkText(c *Chunk) string {
	var b strings.Builder
	for _, l := range chunkLines(nil, c) {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// chunkLines appends to out c's path line and its lines, indented from
// the chunk's own depth.
func chunkLines(out []Line, c *Chunk) []Line {
	path := "page"
	if c.Path != "" {
		path = c.Path
	}
	out = append(out, Line{Text: "# " + path})
	strip := -1
	for _, l := range c.Lines {
		ind := len(l.Text) - len(strings.TrimLeft(l.Text, " "))
		if strip < 0 || ind < strip {
			strip = ind
		}
	}
	for _, l := range c.Lines {
		out = append(out, Line{ID: l.ID, Text: l.Text[min(strip, len(l.Text)-len(strings.TrimLeft(l.Text, " "))):]})
	}
	return out
}

// cutChunk keeps the first lines of c that fit in budget tokens, and a
// line saying how many were cut. It returns the tokens kept.
func cutChunk(c *Chunk, budget int) int {
	used := CountTokens(c.Path) + 4
	for i, l := range c.Lines {
		t := CountTokens(l.Text) + 1
		if used+t > budget-20 {
			cut := len(c.Lines) - i
			c.Lines = append(c.Lines[:i:i], Line{Text: "… " + strconv.Itoa(cut) + " more lines of this part: a selector on it shows them"})
			return used + 20
		}
		used += t
	}
	return used
}
