package filter

import (
	"strings"

	"github.com/robofilter/robofilter/aipref"
	"github.com/robofilter/robofilter/internal/quote"
)

// aiState is a run's AI usage preferences (docs/aipref.md) and what they
// did to the outputs.
type aiState struct {
	set     aipref.Set
	purpose aipref.Purpose
	// off is NoIndex while the preferences disallow the purpose: the text
	// outputs carry nothing, as under noindex, but the directives say
	// nothing of it (it is no robots switch).
	off Switch
	// noai: the statement of the document's noai was taken.
	noai bool
}

// aiHeaders takes the preferences from outside the document: the site's
// statements, then the response's headers.
func (c *Core) aiHeaders() {
	o := &c.opts
	for _, st := range o.SiteStatements {
		c.ai.set.Add(st)
	}
	if len(o.ContentUsage) > 0 {
		// Several field lines make one field value (RFC 9651 section
		// 4.2): a key of a later line overwrites an earlier one's.
		v := strings.Join(o.ContentUsage, ", ")
		p, warns := aipref.ParseUsage(v)
		for _, w := range warns {
			c.Warn(Pos{}, "Content-Usage header: %s", w.Message)
		}
		c.ai.set.Add(aipref.Statement{Mechanism: aipref.ContentUsage, Origin: "content-usage header", Value: v, Level: aipref.LevelResponse, Prefs: p})
	}
	for _, v := range o.TDMReservation {
		c.tdmReservation(v, "tdm-reservation header", aipref.LevelResponse, Pos{})
	}
	for _, v := range o.TDMPolicy {
		c.ai.set.AddTDMPolicy(aipref.LevelResponse, strings.TrimSpace(v))
	}
	c.decidePurpose(Pos{})
}

// tdmReservation takes a tdm-reservation value: a statement, or a warning
// when it is neither 1 nor 0 (unset, as TDMRep asks).
func (c *Core) tdmReservation(v, origin string, level aipref.Level, pos Pos) {
	p, set, warn := aipref.ParseTDMReservation(v)
	if !set {
		c.Warn(pos, "%s: %s", origin, warn)
		return
	}
	c.ai.set.Add(aipref.Statement{Mechanism: aipref.TDMRep, Origin: origin, Value: v, Line: pos.Line, Col: pos.Col, Level: level, Prefs: p})
}

// aiMeta reads the TDMRep META tags (TDMRep section "TDM Metadata in HTML
// Content"): name tdm-reservation or tdm-policy. It reports whether name
// is one of them.
func (c *Core) aiMeta(name string, content []byte, pos Pos) bool {
	switch name {
	case "tdm-reservation":
		c.tdmReservation(string(content), "meta tdm-reservation", aipref.LevelDocument, pos)
	case "tdm-policy":
		c.ai.set.AddTDMPolicy(aipref.LevelDocument, strings.TrimSpace(string(content)))
	default:
		return false
	}
	c.decidePurpose(pos)
	return true
}

// aiDirectives takes the noai of a robots source once the document's
// directives hold it: the first source that said it is the statement.
func (c *Core) aiDirectives(src DirectiveSource, pos Pos) {
	if !c.doc.NoAI || c.ai.noai {
		return
	}
	c.ai.noai = true
	level := aipref.LevelDocument
	if src.Line == 0 {
		level = aipref.LevelResponse // an X-Robots-Tag value
	}
	c.ai.set.Add(aipref.Statement{Mechanism: aipref.Robots, Origin: src.Origin, Value: src.Value, Line: src.Line, Col: src.Col, Level: level, Prefs: aipref.NoAI()})
	c.decidePurpose(pos)
}

// decidePurpose applies what the preferences now say of the purpose.
// Before the body's first content, a change applies to the whole
// document; after, from here on, with a warning (as a late robots META).
func (c *Core) decidePurpose(pos Pos) {
	if c.ai.purpose.IsZero() {
		return
	}
	d := c.ai.set.Decide(c.ai.purpose)
	off := Switch(0)
	if !d.Allowed {
		off = NoIndex
	}
	if off == c.ai.off {
		return
	}
	c.ai.off = off
	c.docOff = c.doc.Switches() | off
	if c.held || !c.wantsText {
		return
	}
	if off != 0 && c.written {
		by := "a statement"
		if d.By != nil {
			by = quote.Clip(d.By.String(), 200)
		}
		c.Warn(pos, "%s disallows %s (purpose %s) after text was written: the text before it was written, the rest is withheld", by, d.Category, d.Purpose)
	} else if off == 0 {
		c.Warn(pos, "purpose %s allowed from here on (%s supersedes what disallowed it): the text before was withheld", d.Purpose, c.aiDecider())
	}
}

// aiDecider names the statement the purpose's categories now follow.
func (c *Core) aiDecider() string {
	_, by := c.ai.set.Prefs()
	for _, st := range by {
		if st != nil {
			return quote.Clip(st.String(), 200)
		}
	}
	return "a later statement"
}

// aiReport is the preferences' report for the Result, nil when there is
// nothing to say.
func (c *Core) aiReport() *aipref.Report {
	if c.ai.set.IsEmpty() && c.ai.purpose.IsZero() {
		return nil
	}
	return c.ai.set.Report(c.ai.purpose)
}
