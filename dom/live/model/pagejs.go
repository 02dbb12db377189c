package model

import "strings"

// PageJS makes a page script from a .js file and the shared parts its
// /*@name*/ markers stand for; parts come as name, text pairs. The
// newline that ends each file is dropped, so a part fits inside an
// expression.
func PageJS(src string, parts ...string) string {
	src = strings.TrimSuffix(src, "\n")
	for i := 0; i+1 < len(parts); i += 2 {
		src = strings.ReplaceAll(src, "/*@"+parts[i]+"*/", strings.TrimSuffix(parts[i+1], "\n"))
	}
	return src
}
