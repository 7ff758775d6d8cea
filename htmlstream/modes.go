package htmlstream

import (
	"bytes"

	"golang.org/x/net/html"
	a "golang.org/x/net/html/atom"
)

// The insertion modes below follow golang.org/x/net/html's parser (the
// project's oracle) rule for rule, including its divergences from the
// WHATWG text, so that every region agrees with the tree html.Parse builds.

const whitespace = " \t\r\n\f"

func trimLeftSpace(b []byte) []byte { return bytes.TrimLeft(b, whitespace) }

// insertLeadingSpace inserts the text token's leading whitespace where the
// current mode puts it and leaves the rest to be reprocessed; it reports
// whether the token was all whitespace.
func (b *builder) insertLeadingSpace() bool {
	s := trimLeftSpace(b.tok.data)
	if len(s) < len(b.tok.data) {
		b.addText(b.tok.data[:len(b.tok.data)-len(s)])
		if len(s) == 0 {
			return true
		}
		b.tok.data = s
	}
	return false
}

func isAllSpace(b []byte) bool { return len(bytes.Trim(b, whitespace)) == 0 }

func (b *builder) parseImpliedToken(typ html.TokenType, x a.Atom, name string) {
	real, sc := b.tok, b.selfClosing
	b.tok = token{typ: typ, atom: x, name: name, implied: true}
	b.selfClosing = false
	b.parseCurrentToken()
	b.tok, b.selfClosing = real, sc
}

func (b *builder) parseCurrentToken() {
	if b.tok.typ == html.SelfClosingTagToken {
		b.selfClosing = true
		b.tok.typ = html.StartTagToken
	}
	for consumed := false; !consumed; {
		if b.openForeign > 0 && b.inForeignContent() {
			consumed = parseForeignContent(b)
		} else {
			consumed = b.im(b)
		}
	}
	b.selfClosing = false
}

func (b *builder) setOriginalIM() { b.originalIM = b.im }

func (b *builder) resetInsertionMode() {
	start := len(b.oe) - 1
	if b.deep() {
		if start = b.stopBelow(stopMode); start < 0 {
			start = b.dx.from - 1
		}
	}
	for i := start; i >= 0; i-- {
		n := b.oe[i]
		last := i == 0
		switch n.atom {
		case a.Td, a.Th:
			b.im = inCellIM
		case a.Tr:
			b.im = inRowIM
		case a.Tbody, a.Thead, a.Tfoot:
			b.im = inTableBodyIM
		case a.Caption:
			b.im = inCaptionIM
		case a.Colgroup:
			b.im = inColumnGroupIM
		case a.Table:
			b.im = inTableIM
		case a.Template:
			if n.ns != nsHTML {
				continue
			}
			b.im = b.templateStack[len(b.templateStack)-1]
		case a.Head:
			b.im = inHeadIM
		case a.Body:
			b.im = inBodyIM
		case a.Frameset:
			b.im = inFramesetIM
		case a.Html:
			if b.head == nil {
				b.im = beforeHeadIM
			} else {
				b.im = afterHeadIM
			}
		default:
			if last {
				b.im = inBodyIM
				return
			}
			continue
		}
		return
	}
}

func initialIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		b.tok.data = trimLeftSpace(b.tok.data)
		if len(b.tok.data) == 0 {
			return true
		}
	case html.CommentToken:
		b.commentTo = b.doc // the comment is the document's child
		return true
	case html.DoctypeToken:
		b.quirks = quirksMode(string(b.tok.data))
		b.im = beforeHTMLIM
		return true
	}
	b.quirks = true
	b.im = beforeHTMLIM
	return false
}

func beforeHTMLIM(b *builder) bool {
	switch b.tok.typ {
	case html.DoctypeToken:
		return true
	case html.TextToken:
		b.tok.data = trimLeftSpace(b.tok.data)
		if len(b.tok.data) == 0 {
			return true
		}
	case html.StartTagToken:
		if b.tok.atom == a.Html {
			b.addElement()
			b.im = beforeHeadIM
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case a.Head, a.Body, a.Html, a.Br:
			b.parseImpliedToken(html.StartTagToken, a.Html, "html")
			return false
		default:
			return true
		}
	case html.CommentToken:
		b.commentTo = b.doc // the comment is the document's child
		return true
	}
	b.parseImpliedToken(html.StartTagToken, a.Html, "html")
	return false
}

func beforeHeadIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		b.tok.data = trimLeftSpace(b.tok.data)
		if len(b.tok.data) == 0 {
			return true
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Head:
			b.pin(&b.head, b.addElement())
			b.im = inHeadIM
			return true
		case a.Html:
			return inBodyIM(b)
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case a.Head, a.Body, a.Html, a.Br:
			b.parseImpliedToken(html.StartTagToken, a.Head, "head")
			return false
		default:
			return true
		}
	case html.CommentToken:
		b.addComment()
		return true
	case html.DoctypeToken:
		return true
	}
	b.parseImpliedToken(html.StartTagToken, a.Head, "head")
	return false
}

func inHeadIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		if b.insertLeadingSpace() {
			return true
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Html:
			return inBodyIM(b)
		case a.Base, a.Basefont, a.Bgsound, a.Link, a.Meta:
			b.addElement()
			b.pop()
			b.selfClosing = false
			return true
		case a.Noscript:
			// Scripting is on, as in html.Parse's default: raw text.
			b.addElement()
			b.setOriginalIM()
			b.im = textIM
			return true
		case a.Script, a.Title:
			b.addElement()
			b.setOriginalIM()
			b.im = textIM
			return true
		case a.Noframes, a.Style:
			b.addElement()
			b.setOriginalIM()
			b.im = textIM
			return true
		case a.Head:
			return true
		case a.Template:
			if b.openForeign > 0 {
				b.im = ignoreTheRemainingTokens
				return true
			}
			b.addElement()
			b.afe = append(b.afe, scopeMarker)
			b.framesetOK = false
			b.im = inTemplateIM
			b.templateStack = append(b.templateStack, inTemplateIM)
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case a.Head:
			b.pop()
			b.im = afterHeadIM
			return true
		case a.Body, a.Html, a.Br:
			b.parseImpliedToken(html.EndTagToken, a.Head, "head")
			return false
		case a.Template:
			if !b.stackContains(a.Template) {
				return true
			}
			b.generateImpliedEndTags()
			for i := len(b.oe) - 1; i >= 0; i-- {
				if n := b.oe[i]; n.ns == nsHTML && n.atom == a.Template {
					b.popTo(i)
					break
				}
			}
			b.clearActiveFormattingElements()
			b.templateStack = b.templateStack[:len(b.templateStack)-1]
			b.resetInsertionMode()
			return true
		default:
			return true
		}
	case html.CommentToken:
		b.addComment()
		return true
	case html.DoctypeToken:
		return true
	}
	b.parseImpliedToken(html.EndTagToken, a.Head, "head")
	return false
}

func afterHeadIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		if b.insertLeadingSpace() {
			return true
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Html:
			return inBodyIM(b)
		case a.Body:
			b.addElement()
			b.framesetOK = false
			b.im = inBodyIM
			return true
		case a.Frameset:
			b.addElement()
			b.im = inFramesetIM
			return true
		case a.Base, a.Basefont, a.Bgsound, a.Link, a.Meta, a.Noframes, a.Script, a.Style, a.Template, a.Title:
			head := b.head
			b.push(head)
			r := inHeadIM(b)
			b.removeFromStack(head)
			return r
		case a.Head:
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case a.Body, a.Html, a.Br:
		case a.Template:
			return inHeadIM(b)
		default:
			return true
		}
	case html.CommentToken:
		b.addComment()
		return true
	case html.DoctypeToken:
		return true
	}
	b.parseImpliedToken(html.StartTagToken, a.Body, "body")
	b.framesetOK = true
	return b.tok.typ == html.ErrorToken
}

func inBodyIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		d := b.tok.data
		switch n := b.top(); n.atom {
		case a.Pre, a.Listing:
			if !n.hasChild {
				if len(d) > 0 && d[0] == '\r' {
					d = d[1:]
				}
				if len(d) > 0 && d[0] == '\n' {
					d = d[1:]
				}
			}
		}
		if !b.tok.noNUL && bytes.IndexByte(d, 0) >= 0 {
			d = bytes.ReplaceAll(d, []byte{0}, nil)
		}
		if len(d) == 0 {
			return true
		}
		b.reconstructActiveFormattingElements()
		b.addText(d)
		if b.framesetOK && !isAllSpace(d) {
			b.framesetOK = false
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Html:
			if b.stackContains(a.Template) {
				return true
			}
			b.copyBodyClass(b.oe[0])
		case a.Base, a.Basefont, a.Bgsound, a.Link, a.Meta, a.Noframes, a.Script, a.Style, a.Template, a.Title:
			return inHeadIM(b)
		case a.Body:
			if b.stackContains(a.Template) {
				return true
			}
			if len(b.oe) >= 2 {
				if body := b.oe[1]; body.atom == a.Body {
					b.framesetOK = false
					b.copyBodyClass(body)
				}
			}
		case a.Frameset:
			if !b.framesetOK || len(b.oe) < 2 || b.oe[1].atom != a.Body {
				return true
			}
			b.removedBody++ // the tree drops the body and what was written in it
			b.popTo(1)
			b.addElement()
			b.im = inFramesetIM
			return true
		case a.Address, a.Article, a.Aside, a.Blockquote, a.Center, a.Details, a.Dialog, a.Dir, a.Div, a.Dl,
			a.Fieldset, a.Figcaption, a.Figure, a.Footer, a.Header, a.Hgroup, a.Main, a.Menu, a.Nav, a.Ol,
			a.P, a.Search, a.Section, a.Summary, a.Ul:
			b.popUntil(buttonScope, a.P)
			b.addElement()
		case a.H1, a.H2, a.H3, a.H4, a.H5, a.H6:
			b.popUntil(buttonScope, a.P)
			switch b.top().atom {
			case a.H1, a.H2, a.H3, a.H4, a.H5, a.H6:
				b.pop()
			}
			b.addElement()
		case a.Pre, a.Listing:
			b.popUntil(buttonScope, a.P)
			b.addElement()
			b.framesetOK = false
		case a.Form:
			if b.form != nil && !b.stackContains(a.Template) {
				return true
			}
			b.popUntil(buttonScope, a.P)
			n := b.addElement()
			if !b.stackContains(a.Template) {
				b.pin(&b.form, n)
			}
		case a.Li:
			b.framesetOK = false
			for i := b.listItemSearchStart(a.Li, a.Li); i >= 0; i-- {
				n := b.oe[i]
				switch n.atom {
				case a.Li:
					b.popTo(i)
				case a.Address, a.Div, a.P:
					continue
				default:
					if !n.isSpecial() {
						continue
					}
				}
				break
			}
			b.popUntil(buttonScope, a.P)
			b.addElement()
		case a.Dd, a.Dt:
			b.framesetOK = false
			for i := b.listItemSearchStart(a.Dd, a.Dt); i >= 0; i-- {
				n := b.oe[i]
				switch n.atom {
				case a.Dd, a.Dt:
					b.popTo(i)
				case a.Address, a.Div, a.P:
					continue
				default:
					if !n.isSpecial() {
						continue
					}
				}
				break
			}
			b.popUntil(buttonScope, a.P)
			b.addElement()
		case a.Plaintext:
			b.popUntil(buttonScope, a.P)
			b.addElement()
		case a.Button:
			if b.elementInScope(defaultScope, a.Button) {
				b.generateImpliedEndTags()
				b.popUntil(defaultScope, a.Button)
			}
			b.reconstructActiveFormattingElements()
			b.addElement()
			b.framesetOK = false
		case a.A:
			for i := len(b.afe) - 1; i >= 0 && b.afe[i] != scopeMarker; i-- {
				if n := b.afe[i]; n.atom == a.A {
					n.pinned++ // the adoption agency may drop it; it must not be recycled yet
					b.adoptionAgency(a.A, "a")
					b.removeFromStack(n)
					b.afeRemove(n)
					n.pinned--
					b.maybeFree(n)
					break
				}
			}
			b.reconstructActiveFormattingElements()
			b.addFormattingElement()
		case a.B, a.Big, a.Code, a.Em, a.Font, a.I, a.S, a.Small, a.Strike, a.Strong, a.Tt, a.U:
			b.reconstructActiveFormattingElements()
			b.addFormattingElement()
		case a.Nobr:
			b.reconstructActiveFormattingElements()
			if b.elementInScope(defaultScope, a.Nobr) {
				b.adoptionAgency(a.Nobr, "nobr")
				b.reconstructActiveFormattingElements()
			}
			b.addFormattingElement()
		case a.Applet, a.Marquee, a.Object:
			b.reconstructActiveFormattingElements()
			b.addElement()
			b.afe = append(b.afe, scopeMarker)
			b.framesetOK = false
		case a.Table:
			if !b.quirks {
				b.popUntil(buttonScope, a.P)
			}
			b.addElement()
			b.framesetOK = false
			b.im = inTableIM
			return true
		case a.Area, a.Br, a.Embed, a.Img, a.Keygen, a.Wbr:
			b.reconstructActiveFormattingElements()
			b.addElement()
			b.pop()
			b.selfClosing = false
			b.framesetOK = false
		case a.Input:
			b.popUntil(defaultScope, a.Select)
			b.reconstructActiveFormattingElements()
			b.addElement()
			b.pop()
			b.selfClosing = false
			if t, ok := b.tok.attr("type"); ok && bytes.EqualFold(t, []byte("hidden")) {
				return true
			}
			b.framesetOK = false
		case a.Param, a.Source, a.Track:
			b.addElement()
			b.pop()
			b.selfClosing = false
		case a.Hr:
			if b.elementInScope(buttonScope, a.P) {
				b.generateImpliedEndTags(a.P)
				b.popUntil(defaultScope, a.P)
			}
			if b.elementInScope(defaultScope, a.Select) {
				b.generateImpliedEndTags()
			}
			b.addElement()
			b.pop()
			b.selfClosing = false
			b.framesetOK = false
		case a.Image:
			b.tok.atom, b.tok.name = a.Img, "img"
			return false
		case a.Textarea:
			b.addElement()
			b.setOriginalIM()
			b.framesetOK = false
			b.im = textIM
		case a.Xmp:
			b.popUntil(buttonScope, a.P)
			b.reconstructActiveFormattingElements()
			b.framesetOK = false
			b.addElement()
			b.setOriginalIM()
			b.im = textIM
		case a.Iframe:
			b.framesetOK = false
			b.addElement()
			b.setOriginalIM()
			b.im = textIM
		case a.Noembed, a.Noscript:
			b.addElement()
			b.setOriginalIM()
			b.im = textIM
			return true
		case a.Select:
			if b.popUntil(defaultScope, a.Select) {
				return true
			}
			b.reconstructActiveFormattingElements()
			b.addElement()
			b.framesetOK = false
			return true
		case a.Option:
			if b.elementInScope(defaultScope, a.Select) {
				b.generateImpliedEndTags(a.Optgroup)
			} else if b.top().atom == a.Option {
				b.pop()
			}
			b.reconstructActiveFormattingElements()
			b.addElement()
		case a.Optgroup:
			if b.elementInScope(defaultScope, a.Select) {
				b.generateImpliedEndTags()
			} else if b.top().atom == a.Option {
				b.pop()
			}
			b.reconstructActiveFormattingElements()
			b.addElement()
		case a.Rb, a.Rtc:
			if b.elementInScope(defaultScope, a.Ruby) {
				b.generateImpliedEndTags()
			}
			b.addElement()
		case a.Rp, a.Rt:
			if b.elementInScope(defaultScope, a.Ruby) {
				b.generateImpliedEndTags(a.Rtc)
			}
			b.addElement()
		case a.Math, a.Svg:
			b.reconstructActiveFormattingElements()
			ns := nsSVG
			if b.tok.atom == a.Math {
				ns = nsMath
			}
			b.insertElement(b.tok.atom, b.tok.name, ns)
			if b.selfClosing {
				b.pop()
				b.selfClosing = false
			}
			return true
		case a.Caption, a.Col, a.Colgroup, a.Frame, a.Head, a.Tbody, a.Td, a.Tfoot, a.Th, a.Thead, a.Tr:
			// Ignored.
		default:
			b.reconstructActiveFormattingElements()
			b.addElement()
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case a.Body:
			if b.elementInScope(defaultScope, a.Body) {
				b.im = afterBodyIM
			}
		case a.Html:
			if b.elementInScope(defaultScope, a.Body) {
				b.parseImpliedToken(html.EndTagToken, a.Body, "body")
				return false
			}
			return true
		case a.Address, a.Article, a.Aside, a.Blockquote, a.Button, a.Center, a.Details, a.Dialog, a.Dir, a.Div,
			a.Dl, a.Fieldset, a.Figcaption, a.Figure, a.Footer, a.Header, a.Hgroup, a.Listing, a.Main, a.Menu,
			a.Nav, a.Ol, a.Pre, a.Search, a.Section, a.Select, a.Summary, a.Ul:
			if !b.elementInScope(defaultScope, b.tok.atom) {
				return true
			}
			b.generateImpliedEndTags()
			b.popUntil(defaultScope, b.tok.atom)
		case a.Form:
			if b.stackContains(a.Template) {
				i := b.indexOfElementInScope(defaultScope, a.Form)
				if i == -1 {
					return true
				}
				b.generateImpliedEndTags()
				if b.oe[i].atom != a.Form {
					return true
				}
				b.popUntil(defaultScope, a.Form)
			} else {
				n := b.form
				b.pin(&b.form, nil)
				i := b.indexOfElementInScope(defaultScope, a.Form)
				if n == nil || i == -1 || b.oe[i] != n {
					return true
				}
				b.generateImpliedEndTags()
				b.removeFromStack(n)
			}
		case a.P:
			if !b.elementInScope(buttonScope, a.P) {
				b.parseImpliedToken(html.StartTagToken, a.P, "p")
			}
			b.popUntil(buttonScope, a.P)
		case a.Li:
			b.popUntil(listItemScope, a.Li)
		case a.Dd, a.Dt:
			b.popUntil(defaultScope, b.tok.atom)
		case a.H1, a.H2, a.H3, a.H4, a.H5, a.H6:
			b.popUntil(defaultScope, a.H1, a.H2, a.H3, a.H4, a.H5, a.H6)
		case a.A, a.B, a.Big, a.Code, a.Em, a.Font, a.I, a.Nobr, a.S, a.Small, a.Strike, a.Strong, a.Tt, a.U:
			b.adoptionAgency(b.tok.atom, b.tok.name)
		case a.Applet, a.Marquee, a.Object:
			if b.popUntil(defaultScope, b.tok.atom) {
				b.clearActiveFormattingElements()
			}
		case a.Br:
			b.tok.typ = html.StartTagToken
			return false
		case a.Template:
			return inHeadIM(b)
		default:
			b.endTagOther(b.tok.atom, b.tok.name)
		}
	case html.CommentToken:
		b.addComment()
	case html.ErrorToken:
		if len(b.templateStack) > 0 {
			b.im = inTemplateIM
			return false
		}
	}
	return true
}

// listItemSearchStart is where the search for an open list item (x or y)
// that a new one closes starts: the top, the item itself, or none (-1)
// when the stack's index knows the answer.
func (b *builder) listItemSearchStart(x, y a.Atom) int {
	if !b.deep() {
		return len(b.oe) - 1
	}
	m := max(b.topmostAtom(x), b.topmostAtom(y))
	if r := deepSearch(m, b.stopBelow(stopListItem)); r != walkBelow {
		return r // the loop stops there, at the item or at the stop
	}
	return b.dx.from - 1
}

// endTagOther is "any other end tag" in body.
func (b *builder) endTagOther(x a.Atom, name string) {
	start := len(b.oe) - 1
	if b.deep() {
		r := deepSearch(b.topmostNamed(nsHTML, name), b.stopBelow(stopSpecial))
		switch r {
		case walkBelow:
			start = b.dx.from - 1
		case -1:
			return
		default:
			b.popTo(r)
			return
		}
	}
	for i := start; i >= 0; i-- {
		n := b.oe[i]
		if n.ns == nsHTML && n.atom == x && (x != 0 || n.name == name) {
			b.popTo(i)
			break
		}
		if n.isSpecial() {
			break
		}
	}
}

func textIM(b *builder) bool {
	switch b.tok.typ {
	case html.ErrorToken:
		b.pop()
	case html.TextToken:
		d := b.tok.data
		if n := b.top(); n.atom == a.Textarea && !n.hasChild {
			if len(d) > 0 && d[0] == '\r' {
				d = d[1:]
			}
			if len(d) > 0 && d[0] == '\n' {
				d = d[1:]
			}
		}
		if len(d) == 0 {
			return true
		}
		b.addText(d)
		return true
	case html.EndTagToken:
		b.pop()
	}
	b.im = b.originalIM
	b.originalIM = nil
	return b.tok.typ == html.EndTagToken
}

func inTableIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		if bytes.IndexByte(b.tok.data, 0) >= 0 {
			b.tok.data = bytes.ReplaceAll(b.tok.data, []byte{0}, nil)
		}
		switch b.top().atom {
		case a.Table, a.Tbody, a.Tfoot, a.Thead, a.Tr:
			if isAllSpace(b.tok.data) {
				b.addText(b.tok.data)
				return true
			}
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Caption:
			b.clearStackToContext(tableScope)
			b.afe = append(b.afe, scopeMarker)
			b.addElement()
			b.im = inCaptionIM
			return true
		case a.Colgroup:
			b.clearStackToContext(tableScope)
			b.addElement()
			b.im = inColumnGroupIM
			return true
		case a.Col:
			b.parseImpliedToken(html.StartTagToken, a.Colgroup, "colgroup")
			return false
		case a.Tbody, a.Tfoot, a.Thead:
			b.clearStackToContext(tableScope)
			b.addElement()
			b.im = inTableBodyIM
			return true
		case a.Td, a.Th, a.Tr:
			b.parseImpliedToken(html.StartTagToken, a.Tbody, "tbody")
			return false
		case a.Table:
			if b.popUntil(tableScope, a.Table) {
				b.resetInsertionMode()
				return false
			}
			return true
		case a.Style, a.Script, a.Template:
			return inHeadIM(b)
		case a.Input:
			if t, ok := b.tok.attr("type"); ok && bytes.EqualFold(t, []byte("hidden")) {
				b.addElement()
				b.pop()
				return true
			}
		case a.Form:
			if b.stackContains(a.Template) || b.form != nil {
				return true
			}
			n := b.addElement()
			b.pin(&b.form, n) // before the pop, which would free it
			b.pop()
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case a.Table:
			if b.popUntil(tableScope, a.Table) {
				b.resetInsertionMode()
			}
			return true
		case a.Body, a.Caption, a.Col, a.Colgroup, a.Html, a.Tbody, a.Td, a.Tfoot, a.Th, a.Thead, a.Tr:
			return true
		case a.Template:
			return inHeadIM(b)
		}
	case html.CommentToken:
		b.addComment()
		return true
	case html.DoctypeToken:
		return true
	case html.ErrorToken:
		return inBodyIM(b)
	}
	b.fosterParenting = true
	r := inBodyIM(b)
	b.fosterParenting = false
	return r
}

func inCaptionIM(b *builder) bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Caption, a.Col, a.Colgroup, a.Tbody, a.Td, a.Tfoot, a.Thead, a.Tr:
			if !b.popUntil(tableScope, a.Caption) {
				return true
			}
			b.clearActiveFormattingElements()
			b.im = inTableIM
			return false
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case a.Caption:
			if b.popUntil(tableScope, a.Caption) {
				b.clearActiveFormattingElements()
				b.im = inTableIM
			}
			return true
		case a.Table:
			if !b.popUntil(tableScope, a.Caption) {
				return true
			}
			b.clearActiveFormattingElements()
			b.im = inTableIM
			return false
		case a.Body, a.Col, a.Colgroup, a.Html, a.Tbody, a.Td, a.Tfoot, a.Th, a.Thead, a.Tr:
			return true
		}
	}
	return inBodyIM(b)
}

func inColumnGroupIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		if b.insertLeadingSpace() {
			return true
		}
	case html.CommentToken:
		b.addComment()
		return true
	case html.DoctypeToken:
		return true
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Html:
			return inBodyIM(b)
		case a.Col:
			b.addElement()
			b.pop()
			b.selfClosing = false
			return true
		case a.Template:
			return inHeadIM(b)
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case a.Colgroup:
			if b.top().atom == a.Colgroup {
				b.pop()
				b.im = inTableIM
			}
			return true
		case a.Col:
			return true
		case a.Template:
			return inHeadIM(b)
		}
	case html.ErrorToken:
		return inBodyIM(b)
	}
	if b.top().atom != a.Colgroup {
		return true
	}
	b.pop()
	b.im = inTableIM
	return false
}

func inTableBodyIM(b *builder) bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Tr:
			b.clearStackToContext(tableBodyScope)
			b.addElement()
			b.im = inRowIM
			return true
		case a.Td, a.Th:
			b.parseImpliedToken(html.StartTagToken, a.Tr, "tr")
			return false
		case a.Caption, a.Col, a.Colgroup, a.Tbody, a.Tfoot, a.Thead:
			if b.popUntil(tableScope, a.Tbody, a.Thead, a.Tfoot) {
				b.im = inTableIM
				return false
			}
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case a.Tbody, a.Tfoot, a.Thead:
			if b.elementInScope(tableScope, b.tok.atom) {
				b.clearStackToContext(tableBodyScope)
				b.pop()
				b.im = inTableIM
			}
			return true
		case a.Table:
			if b.popUntil(tableScope, a.Tbody, a.Thead, a.Tfoot) {
				b.im = inTableIM
				return false
			}
			return true
		case a.Body, a.Caption, a.Col, a.Colgroup, a.Html, a.Td, a.Th, a.Tr:
			return true
		}
	case html.CommentToken:
		b.addComment()
		return true
	}
	return inTableIM(b)
}

func inRowIM(b *builder) bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Td, a.Th:
			b.clearStackToContext(tableRowScope)
			b.addElement()
			b.afe = append(b.afe, scopeMarker)
			b.im = inCellIM
			return true
		case a.Caption, a.Col, a.Colgroup, a.Tbody, a.Tfoot, a.Thead, a.Tr:
			if b.elementInScope(tableScope, a.Tr) {
				b.clearStackToContext(tableRowScope)
				b.pop()
				b.im = inTableBodyIM
				return false
			}
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case a.Tr:
			if b.elementInScope(tableScope, a.Tr) {
				b.clearStackToContext(tableRowScope)
				b.pop()
				b.im = inTableBodyIM
			}
			return true
		case a.Table:
			if b.elementInScope(tableScope, a.Tr) {
				b.clearStackToContext(tableRowScope)
				b.pop()
				b.im = inTableBodyIM
				return false
			}
			return true
		case a.Tbody, a.Tfoot, a.Thead:
			if b.elementInScope(tableScope, b.tok.atom) && b.elementInScope(tableScope, a.Tr) {
				b.clearStackToContext(tableRowScope)
				b.pop()
				b.im = inTableBodyIM
				return false
			}
			return true
		case a.Body, a.Caption, a.Col, a.Colgroup, a.Html, a.Td, a.Th:
			return true
		}
	}
	return inTableIM(b)
}

func inCellIM(b *builder) bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Caption, a.Col, a.Colgroup, a.Tbody, a.Td, a.Tfoot, a.Th, a.Thead, a.Tr:
			if b.popUntil(tableScope, a.Td, a.Th) {
				b.clearActiveFormattingElements()
				b.im = inRowIM
				return false
			}
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case a.Td, a.Th:
			if !b.popUntil(tableScope, b.tok.atom) {
				return true
			}
			b.clearActiveFormattingElements()
			b.im = inRowIM
			return true
		case a.Body, a.Caption, a.Col, a.Colgroup, a.Html:
			return true
		case a.Table, a.Tbody, a.Tfoot, a.Thead, a.Tr:
			if !b.elementInScope(tableScope, b.tok.atom) {
				return true
			}
			if b.popUntil(tableScope, a.Td, a.Th) {
				b.clearActiveFormattingElements()
			}
			b.im = inRowIM
			return false
		}
	}
	return inBodyIM(b)
}

func inTemplateIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken, html.CommentToken, html.DoctypeToken:
		return inBodyIM(b)
	case html.StartTagToken:
		next := inBodyIM
		switch b.tok.atom {
		case a.Base, a.Basefont, a.Bgsound, a.Link, a.Meta, a.Noframes, a.Script, a.Style, a.Template, a.Title:
			return inHeadIM(b)
		case a.Caption, a.Colgroup, a.Tbody, a.Tfoot, a.Thead:
			next = inTableIM
		case a.Col:
			next = inColumnGroupIM
		case a.Tr:
			next = inTableBodyIM
		case a.Td, a.Th:
			next = inRowIM
		}
		b.templateStack[len(b.templateStack)-1] = next
		b.im = next
		return false
	case html.EndTagToken:
		if b.tok.atom == a.Template {
			return inHeadIM(b)
		}
		return true
	case html.ErrorToken:
		if !b.stackContains(a.Template) {
			return true
		}
		b.generateImpliedEndTags()
		for i := len(b.oe) - 1; i >= 0; i-- {
			if n := b.oe[i]; n.ns == nsHTML && n.atom == a.Template {
				b.popTo(i)
				break
			}
		}
		b.clearActiveFormattingElements()
		b.templateStack = b.templateStack[:len(b.templateStack)-1]
		b.resetInsertionMode()
		return false
	}
	return false
}

func afterBodyIM(b *builder) bool {
	switch b.tok.typ {
	case html.ErrorToken:
		return true
	case html.TextToken:
		if len(trimLeftSpace(b.tok.data)) == 0 {
			return inBodyIM(b)
		}
	case html.StartTagToken:
		if b.tok.atom == a.Html {
			return inBodyIM(b)
		}
	case html.EndTagToken:
		if b.tok.atom == a.Html {
			b.im = afterAfterBodyIM
			return true
		}
	case html.CommentToken:
		b.commentTo = b.oe[0] // the html element's child, after the body
		return true
	}
	b.im = inBodyIM
	return false
}

// spaceOnly keeps only the whitespace of text (frameset modes).
func spaceOnly(d []byte) []byte {
	var out []byte
	for _, c := range d {
		switch c {
		case ' ', '\t', '\n', '\f', '\r':
			out = append(out, c)
		}
	}
	return out
}

func inFramesetIM(b *builder) bool {
	switch b.tok.typ {
	case html.CommentToken:
		b.addComment()
	case html.TextToken:
		if s := spaceOnly(b.tok.data); len(s) > 0 {
			b.addText(s)
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Html:
			return inBodyIM(b)
		case a.Frameset:
			b.addElement()
		case a.Frame:
			b.addElement()
			b.pop()
			b.selfClosing = false
		case a.Noframes:
			return inHeadIM(b)
		}
	case html.EndTagToken:
		if b.tok.atom == a.Frameset && b.top().atom != a.Html {
			b.pop()
			if b.top().atom != a.Frameset {
				b.im = afterFramesetIM
			}
		}
	}
	return true
}

func afterFramesetIM(b *builder) bool {
	switch b.tok.typ {
	case html.CommentToken:
		b.addComment()
	case html.TextToken:
		if s := spaceOnly(b.tok.data); len(s) > 0 {
			b.addText(s)
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Html:
			return inBodyIM(b)
		case a.Noframes:
			return inHeadIM(b)
		}
	case html.EndTagToken:
		if b.tok.atom == a.Html {
			b.im = afterAfterFramesetIM
		}
	}
	return true
}

func afterAfterBodyIM(b *builder) bool {
	switch b.tok.typ {
	case html.ErrorToken:
		return true
	case html.TextToken:
		if len(trimLeftSpace(b.tok.data)) == 0 {
			return inBodyIM(b)
		}
	case html.StartTagToken:
		if b.tok.atom == a.Html {
			return inBodyIM(b)
		}
	case html.CommentToken:
		b.commentTo = b.doc // the comment is the document's child
		return true
	case html.DoctypeToken:
		return inBodyIM(b)
	}
	b.im = inBodyIM
	return false
}

func afterAfterFramesetIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		if s := spaceOnly(b.tok.data); len(s) > 0 {
			b.tok.data = s
			return inBodyIM(b)
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case a.Html:
			return inBodyIM(b)
		case a.Noframes:
			return inHeadIM(b)
		}
	case html.DoctypeToken:
		return inBodyIM(b)
	case html.CommentToken:
		b.commentTo = b.doc
	}
	return true
}

func ignoreTheRemainingTokens(*builder) bool { return true }

// Foreign content (SVG, MathML).

func (n *node) mathMLTextIntegrationPoint() bool {
	if n.ns != nsMath {
		return false
	}
	switch n.atom {
	case a.Mi, a.Mo, a.Mn, a.Ms, a.Mtext:
		return true
	}
	return false
}

func (b *builder) inForeignContent() bool {
	if len(b.oe) == 0 {
		return false
	}
	n := b.top()
	if n.ns == nsHTML {
		return false
	}
	if n.mathMLTextIntegrationPoint() {
		if b.tok.typ == html.StartTagToken && b.tok.atom != a.Mglyph && b.tok.atom != a.Malignmark {
			return false
		}
		if b.tok.typ == html.TextToken {
			return false
		}
	}
	if n.ns == nsMath && n.atom == a.AnnotationXml && b.tok.typ == html.StartTagToken && b.tok.atom == a.Svg {
		return false
	}
	if n.integration && (b.tok.typ == html.StartTagToken || b.tok.typ == html.TextToken) {
		return false
	}
	return b.tok.typ != html.ErrorToken
}

func parseForeignContent(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		if b.framesetOK {
			b.framesetOK = len(bytes.TrimLeft(b.tok.data, whitespace+"\x00")) == 0
		}
		if bytes.IndexByte(b.tok.data, 0) >= 0 {
			b.tok.data = bytes.ReplaceAll(b.tok.data, []byte{0}, []byte("\ufffd"))
		}
		b.addText(b.tok.data)
	case html.CommentToken:
		b.addComment()
	case html.StartTagToken:
		breakout := atomFlags.get(b.tok.atom)&flagBreakout != 0
		if b.tok.atom == a.Font {
			for _, k := range []string{"color", "face", "size"} {
				if _, ok := b.tok.attr(k); ok {
					breakout = true
				}
			}
		}
		if breakout {
			for i := len(b.oe) - 1; i >= 0; i-- {
				n := b.oe[i]
				if n.ns == nsHTML || n.integration || n.mathMLTextIntegrationPoint() {
					b.popTo(i + 1)
					break
				}
			}
			return b.im(b)
		}
		ns := b.top().ns
		x := b.tok.atom
		if ns == nsSVG && b.tok.name == "foreignobject" {
			x = a.ForeignObject
		}
		b.insertElement(x, b.tok.name, ns)
		b.z.NextIsNotRawText()
		if b.selfClosing {
			b.pop()
			b.selfClosing = false
		}
	case html.EndTagToken:
		if b.oe[len(b.oe)-1].name == b.tok.name {
			b.pop()
			return true
		}
		start := len(b.oe) - 1
		if b.deep() {
			// The search looks at the foreign elements above the nearest
			// HTML element.
			m := max(b.topmostNamed(nsSVG, b.tok.name), b.topmostNamed(nsMath, b.tok.name))
			h := b.stopBelow(stopHTML)
			if m > h {
				b.popTo(m)
				return true
			}
			if h >= 0 || b.dx.from == 0 || b.oe[b.dx.from-1].ns == nsHTML {
				return b.im(b)
			}
			start = b.dx.from - 1
		}
		for i := start; i >= 0; i-- {
			if b.oe[i].name == b.tok.name {
				b.popTo(i)
				return true
			}
			if i > 0 && b.oe[i-1].ns == nsHTML {
				break
			}
		}
		return b.im(b)
	}
	return true
}
