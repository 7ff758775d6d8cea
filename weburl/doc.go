// Package weburl reads and resolves URLs as browsers do (the WHATWG URL
// standard for http and https, net/url for other schemes), for the links
// output: ResolveHref resolves an href as written against a base, with the
// repairs browsers make; ParseBase reads a document's URL; ParseReference
// and ResolveReference read and apply a base as written (a <base href>,
// an xml:base); SchemeEnd, IsWeb and IsJavaScript tell what an href names.
// PlainResolution is the fast path most links take, without a parse.
//
// Every base robofilter uses (the caller's, a <base href>, an xml:base)
// is bounded by MaxBaseLen, as written and resolved.
package weburl
