// Package apidoc writes docs/api.md: the public surface of each of
// robofilter's library packages, every exported name with the first
// sentence of its doc comment, read from the source with go/doc. Its test
// keeps docs/api.md current (go test ./internal/apidoc -update rewrites
// it).
package apidoc

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Packages are the library's packages, in the order docs/api.md lists
// them: the façade first, then the layers.
var Packages = []string{".", "feed", "input", "input/httpresp", "input/warc", "crawl", "pipeline", "wet",
	"weburl", "robotstxt", "aipref", "filter", "htmlstream", "xmlstream", "elements", "phrase"}

// Write renders the public surface of the packages under root (the
// module's folder).
func Write(root string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# The public surface of each package\n\n")
	b.WriteString("Every exported name of robofilter's library packages, with the first sentence of its doc\n")
	b.WriteString("comment, as `go doc` gives it. Made by `go test ./internal/apidoc -update`; a test keeps it\n")
	b.WriteString("current. For how to use them, see [library.md](library.md).\n")
	for _, dir := range Packages {
		p, err := load(filepath.Join(root, dir))
		if err != nil {
			return nil, err
		}
		path := "github.com/robofilter/robofilter"
		if dir != "." {
			path += "/" + dir
		}
		fmt.Fprintf(&b, "\n## `%s`\n\n%s\n\n", path, oneLine(p.Synopsis(p.Doc)))
		for _, item := range items(p) {
			fmt.Fprintf(&b, "- `%s`: %s\n", item.name, item.sentence)
		}
	}
	return b.Bytes(), nil
}

// load reads a package's non-test files (none of the listed packages
// has build constraints: go/build's matching is not needed).
func load(dir string) (*doc.Package, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no package", dir)
	}
	return doc.NewFromFiles(fset, files, "x")
}

type item struct{ name, sentence string }

// items lists a package's exported names: constants, variables,
// functions, types with their constructors and methods.
func items(p *doc.Package) []item {
	var out []item
	values := func(vs []*doc.Value, prefix string) {
		for _, v := range vs {
			group := oneLine(p.Synopsis(v.Doc))
			for _, spec := range v.Decl.Specs {
				vs := spec.(*ast.ValueSpec)
				// A name's own comment, above it or after it on its
				// line, before the group's.
				s := group
				if c := vs.Doc.Text() + vs.Comment.Text(); c != "" {
					s = oneLine(p.Synopsis(c))
				}
				for _, n := range vs.Names {
					if ast.IsExported(n.Name) {
						out = append(out, item{prefix + n.Name, s})
					}
				}
			}
		}
	}
	funcs := func(fs []*doc.Func, prefix string) {
		for _, f := range fs {
			if ast.IsExported(f.Name) {
				out = append(out, item{prefix + f.Name, oneLine(p.Synopsis(f.Doc))})
			}
		}
	}
	values(p.Consts, "")
	values(p.Vars, "")
	funcs(p.Funcs, "")
	for _, t := range p.Types {
		out = append(out, item{t.Name, oneLine(p.Synopsis(t.Doc))})
		values(t.Consts, "")
		values(t.Vars, "")
		funcs(t.Funcs, "")
		funcs(t.Methods, t.Name+".")
	}
	for i := range out {
		if out[i].sentence != "" {
			continue
		}
		switch {
		case strings.HasSuffix(out[i].name, ".String"):
			out[i].sentence = "the value's name, as reports write it (fmt.Stringer)."
		case strings.HasSuffix(out[i].name, ".Error"):
			out[i].sentence = "the error's message (the error interface)."
		case strings.HasSuffix(out[i].name, ".Unwrap"):
			out[i].sentence = "the error underneath (errors.Unwrap)."
		default:
			out[i].sentence = "(no doc comment)"
		}
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Root is the module's folder, from a test's working directory (a
// package folder inside it).
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/robofilter/robofilter\n")) {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no robofilter go.mod above the working directory")
		}
		dir = up
	}
}
