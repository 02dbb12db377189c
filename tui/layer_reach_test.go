package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// A layer (and the stepper) reads a layerCtx and returns actions. No code
// in a layer file gets a *Model it could change. The prompts' callback
// types name *Model for their owners' code, and stay allowed.
func TestLayersDoNotReachTheModel(t *testing.T) {
	files, err := filepath.Glob("layer_*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no layer files: %v", err)
	}
	isModel := func(e ast.Expr) bool {
		s, ok := e.(*ast.StarExpr)
		if !ok {
			return false
		}
		id, ok := s.X.(*ast.Ident)
		return ok && id.Name == "Model"
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if filepath.Ext(name) != ".go" || len(name) > 8 && name[len(name)-8:] == "_test.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		// a named *Model parameter or receiver is one the code can use
		check := func(fields *ast.FieldList) {
			if fields == nil {
				return
			}
			for _, fld := range fields.List {
				if !isModel(fld.Type) {
					continue
				}
				for _, n := range fld.Names {
					if n.Name != "_" {
						t.Errorf("%s: %s takes the model (%s *Model): give it a layerCtx and return an action", fset.Position(n.Pos()), name, n.Name)
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				check(n.Recv)
				check(n.Type.Params)
			case *ast.FuncLit:
				check(n.Type.Params)
			}
			return true
		})
	}
}
