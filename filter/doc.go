// Package filter is robofilter's format-neutral core: it holds the robots
// directives in force, the scope of every region, and the three outputs
// (indexable text, archive-safe copy, followable links), all fed by one pass
// of a format parser (htmlstream, xmlstream).
//
// A parser drives a Core with calls in document order:
//
//	c, _ := filter.NewCore(opts, outputs)
//	root := c.Root()
//	// per token: c.SetPos(pos), then any of
//	//   c.Start(&scope, &parentScope, &el)    an element opens (its region starts)
//	//   c.Text(&scope, text)                  character data inserted in scope
//	//   c.End(&scope, layout)                 an element ends (its region too)
//	//   c.Archive(raw, c.ArchiveOn(&scope))   the token's bytes, for the archive copy
//	//   c.Meta / c.Toggle / c.BaseHref / c.EndHead (the head has ended)
//	res, err := c.Finish()
//
// Scopes are values the parser owns: it keeps one per open element and
// has the core derive a child's from its parent's (passed by pointer, as
// they are several words long), so region state follows whatever tree the
// format defines (for HTML, the DOM html.Parse would build) without the
// core knowing about trees. Memory is bounded by what the parser keeps.
//
// The package has two surfaces. What a user of robofilter meets (the
// root package names each of these too): Options, Outputs, Result, Link,
// Region, Warning, Pos, PosError, Directives, Switch and Dialects. What a
// parser (a driver) uses to feed the core: Core and its methods, Scope,
// Element, Layout, Names, and the parsing helpers of the in-page dialects
// (ParseCommentMarker, ClassSwitches, ParseDirectives, ParseXRobotsTag).
// A new input format is a new driver, not a new core.
package filter
