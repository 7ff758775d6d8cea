package xmlstream

// Namespaces of the vocabularies whose links and layout robofilter knows.
const (
	nsXML    = "http://www.w3.org/XML/1998/namespace"
	nsXMLNS  = "http://www.w3.org/2000/xmlns/"
	nsXHTML  = "http://www.w3.org/1999/xhtml"
	nsXLink  = "http://www.w3.org/1999/xlink"
	nsSVG    = "http://www.w3.org/2000/svg"
	nsMathML = "http://www.w3.org/1998/Math/MathML"
	nsAtom   = "http://www.w3.org/2005/Atom"
	nsAtom03 = "http://purl.org/atom/ns#"
	nsRSS10  = "http://purl.org/rss/1.0/"
	nsRSS090 = "http://my.netscape.com/rdf/simple/0.9/"
	// RSS 2.0 has no namespace, but Userland's feeds once declared these.
	nsRSS2Userland   = "http://backend.userland.com/rss2"
	nsRSS091Userland = "http://backend.userland.com/rss"
	nsSitemap        = "http://www.sitemaps.org/schemas/sitemap/0.9"
	// Older and mistaken sitemap namespaces still served by generators.
	nsSitemapGoogle084 = "http://www.google.com/schemas/sitemap/0.84"
	nsSitemapGoogle09  = "http://www.google.com/schemas/sitemap/0.9"
)

// knownNamespaces are the namespaces the stage compares names with, each
// its own string.
var knownNamespaces = func() map[string]string {
	m := map[string]string{}
	for _, ns := range []string{nsXML, nsXMLNS, nsXHTML, nsXLink, nsSVG, nsMathML, nsAtom, nsAtom03, nsRSS10, nsRSS090,
		nsRSS2Userland, nsRSS091Userland, nsSitemap, nsSitemapGoogle084, nsSitemapGoogle09} {
		m[ns] = ns
	}
	return m
}()

// nsOther stands for every namespace the stage does not know: names in
// them are only ever found to be in none of the known ones. No namespace
// name equals it (a NUL cannot be in an XML document).
const nsOther = "\x00other"

// boundNamespace is what a namespace binding keeps of the URI uri (which
// may borrow the scanner's buffer): a known namespace, none (""), or
// nsOther, so that no binding holds a copy of the document's text.
func boundNamespace(uri string) string {
	if ns, ok := knownNamespaces[uri]; ok || uri == "" {
		return ns
	}
	return nsOther
}

// rootKind is the vocabulary the document element announces; it decides
// what elements without a namespace mean (RSS 2.0 has none).
type rootKind uint8

const (
	rootOther   rootKind = iota
	rootRSS              // <rss>: RSS 0.9x and 2.0, no namespace (or a Userland one)
	rootSitemap          // <urlset> or <sitemapindex> without a namespace
)

func isAtom(ns string) bool { return ns == nsAtom || ns == nsAtom03 }

func isRSSNamespace(ns string) bool { return ns == nsRSS10 || ns == nsRSS090 }

// isRSS2 reports whether ns is RSS 2.0's (none, or a Userland one).
func isRSS2(ns string) bool { return ns == "" || ns == nsRSS2Userland || ns == nsRSS091Userland }

func isSitemap(ns string) bool {
	return ns == nsSitemap || ns == nsSitemapGoogle084 || ns == nsSitemapGoogle09
}

func rootKindOf(ns, local string) rootKind {
	switch {
	case isRSS2(ns) && local == "rss":
		return rootRSS
	case ns == "" && (local == "urlset" || local == "sitemapindex"):
		return rootSitemap
	}
	return rootOther
}
