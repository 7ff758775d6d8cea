package filter

import "net/url"

// Entry points for formats whose links do not fit HTML's model: XML elements
// carry their own base URL (xml:base scopes nest), and some XML links are an
// element's text (RSS <link>, sitemap <loc>), known only at its end tag.

// StartBased is Start for an element whose links resolve against base (the
// xml:base in effect on it) instead of the document's base. A nil base means
// the document's base, as in Start.
func (c *Core) StartBased(s, parent *Scope, el *Element, base *url.URL) {
	c.linkBase = base
	c.Start(s, parent, el)
	c.linkBase = nil
}

// EndLink adds the link whose URL is the text of an element that is ending:
// s is the scope Start returned for that element, so its regions and the
// document's rules decide whether the link is followed, exactly as for a
// link found at the start tag. el gives the tag, the start position (the
// link's position) and, in Href, the URL as written; el.Link is ignored (such
// a link has no anchor text). base is as for StartBased. The link takes its
// place in document order behind every link already started.
func (c *Core) EndLink(s Scope, el *Element, base *url.URL) {
	if c.out.Link == nil || s.Inert {
		return
	}
	c.linkBase = base
	a := c.newLink(&s, el, s.ov)
	c.linkBase = nil
	a.done = true
	c.enqueue(a)
}
