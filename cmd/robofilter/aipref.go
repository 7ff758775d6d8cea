package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/aipref"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/robotstxt"
)

// AI usage preferences on the command line (docs/aipref.md): the flags
// of the document commands and of allowed, and what they print.

// aiprefDocumentFlags are the document commands' flags for AI usage
// preferences.
func aiprefDocumentFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "purpose", Usage: "the use you have in mind, a label of the AI Preferences vocabulary: `LABEL` is train-ai, ai-use, search or all; a document whose stated preferences disallow it gets no text (links are still reported; the JSON Lines document record says why)"},
		&cli.StringFlag{Name: "robots", Usage: "the site's robots.txt `FILE`: its Content-Usage and Content-Signal lines for --agent apply to the documents by their URL (--base, a WARC record's)"},
		&cli.StringFlag{Name: "tdmrep", Usage: "the site's /.well-known/tdmrep.json `FILE` (TDM Reservation Protocol): its rule for each document's URL applies"},
		&cli.StringSliceFlag{Name: "content-usage", Usage: "a Content-Usage header `VALUE` (repeatable), as --http reads one"},
	}
}

// aiprefConfig is what the flags say, for the run.
type aiprefConfig struct {
	// notes: say on stderr when a document's text is withheld (the
	// commands that print text).
	notes bool
	// site is the origin the site files (--robots, --tdmrep) are for: that
	// of --base, else of the first document with a URL; warned is set once
	// a document of another origin was told they do not apply to it.
	site   string
	warned bool
}

// aiprefOptions reads the flags into rc.opts.
func (rc *runConfig) aiprefOptions(c *cli.Context) error {
	o := &rc.opts
	label := c.String("purpose")
	_, note, err := aipref.ParsePurpose(label)
	if err != nil {
		return cli.Exit("--purpose: "+err.Error(), exitUsage)
	}
	if note != "" && !rc.quiet {
		fmt.Fprintf(rc.stderr, "robofilter: note: --purpose %s: %s\n", label, note)
	}
	o.Purpose = label
	o.ContentUsage = c.StringSlice("content-usage")
	if name := c.String("robots"); name != "" {
		opts := robotstxt.Options{}
		body, err := readRobotsFile(c, name, opts)
		if err != nil {
			return cli.Exit(fmt.Sprintf("%s: error: %v", name, err), exitFailure)
		}
		o.RobotsTxt = robotstxt.Parse(body, opts)
		printRobotsWarnings(c, name, o.RobotsTxt)
	}
	if name := c.String("tdmrep"); name != "" {
		f, err := loadTDMRep(c, name)
		if err != nil {
			return err
		}
		o.TDMRep = f
	}
	rc.aipref.notes = label != "" && (c.Command.Name == "text" || c.Command.Name == "archive" && c.Bool("text"))
	if o.Base != "" {
		rc.aipref.site = origin(o.Base)
	}
	return nil
}

// loadTDMRep reads a tdmrep.json file, its warnings on stderr.
func loadTDMRep(c *cli.Context, name string) (*aipref.TDMRepFile, error) {
	var f *aipref.TDMRepFile
	var warns []aipref.FileWarning
	var err error
	if name == "-" {
		f, warns, err = aipref.ParseTDMRep(input.BareReadErrors(c.App.Reader))
	} else {
		in, oerr := openInput(name)
		if oerr != nil {
			return nil, cli.Exit(fmt.Sprintf("%s: error: %v", name, oerr), exitFailure)
		}
		defer in.Close()
		f, warns, err = aipref.ParseTDMRep(input.BareReadErrors(in))
	}
	if err != nil {
		return nil, cli.Exit(fmt.Sprintf("%s: error: %v", name, err), exitFailure)
	}
	if !c.Bool("quiet") {
		for _, w := range warns {
			fmt.Fprintf(c.App.ErrWriter, "robofilter: %s:%d:%d: warning: %s\n", name, w.Line, w.Col, w.Message)
		}
	}
	return f, nil
}

// origin is a URL's scheme and authority, lower-cased ("" for none).
func origin(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// siteFiles keeps the site files (--robots, --tdmrep) from documents of
// another site than theirs: a robots.txt is one origin's (RFC 9309
// section 2.3), and so is a tdmrep.json. The first such document is told
// so on stderr.
func (rc *runConfig) siteFiles(doc *input.Document) {
	if !rc.siteOf(doc.Name, rc.opts.Base, rc.stderr) {
		rc.opts.RobotsTxt, rc.opts.TDMRep = nil, nil
	}
}

// siteOf reports whether the site files apply to the document named name
// whose base is base, in document order: the first document with a URL
// names the site (unless --base did), and the first of another site is
// told, once, on w. With --jobs it runs as the sources are read, before
// the documents are processed.
func (rc *runConfig) siteOf(name, base string, w io.Writer) bool {
	if rc.opts.RobotsTxt == nil && rc.opts.TDMRep == nil {
		return true
	}
	here := origin(base)
	switch {
	case here == "":
		return true // the library warns that they cannot apply
	case rc.aipref.site == "":
		rc.aipref.site = here
		return true
	case here == rc.aipref.site:
		return true
	}
	if !rc.aipref.warned && !rc.quiet {
		fmt.Fprintf(w, "robofilter: %s: note: --robots and --tdmrep are taken as %s's files: not applied to this document of %s, nor to any other site's (give one site's documents per run)\n", name, rc.aipref.site, here)
	}
	rc.aipref.warned = true
	return false
}

// purposeNote says on stderr that a document's text was withheld, and why.
func (rc *runConfig) purposeNote(name string, res *robofilter.Result) {
	if !rc.aipref.notes || rc.quiet || res == nil || res.Directives.AI == nil {
		return
	}
	if d := res.Directives.AI.Purpose; d != nil && !d.Allowed {
		fmt.Fprintf(rc.stderr, "robofilter: %s: note: no text: %s\n", name, withheldWhy(d))
	}
}

func withheldWhy(d *aipref.Decision) string {
	s := fmt.Sprintf("--purpose %s, and %s is disallowed", d.Purpose, d.Category)
	if d.By != nil {
		s += " by " + d.By.String()
	}
	return s
}

// aiprefSummary lists a document's AI usage preferences for check's
// report: the combined preferences, each statement, the decision.
func aiprefSummary(r *aipref.Report) []string {
	if r == nil {
		return nil
	}
	var parts []string
	for c := range aipref.NumCategories {
		parts = append(parts, fmt.Sprintf("%s %s", aipref.Category(c), r.Preferences[c]))
	}
	lines := []string{"ai preferences: " + strings.Join(parts, ", ")}
	for _, st := range r.Statements {
		s := "  " + st.String() + ": " + st.Prefs.String()
		if st.Superseded {
			s += " (superseded by a closer TDMRep statement)"
		}
		lines = append(lines, s)
	}
	if r.StatementsDropped > 0 {
		lines = append(lines, fmt.Sprintf("  and %d more statements, not listed", r.StatementsDropped))
	}
	if r.TDMPolicy != "" {
		lines = append(lines, "  tdm-policy "+r.TDMPolicy)
	}
	if d := r.Purpose; d != nil {
		if d.Allowed {
			lines = append(lines, "purpose "+d.Purpose+": allowed")
		} else {
			lines = append(lines, "purpose "+d.Purpose+": no text ("+withheldWhy(d)+")")
		}
	}
	return lines
}

// allowedPurposeFlags are allowed's flags for the use of a URL.
func allowedPurposeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "purpose", Usage: "say whether each URL may be fetched and used for `LABEL` (train-ai, ai-use, search or all): robots.txt's Content-Usage and Content-Signal lines and --tdmrep decide; exit status 3 when one may not"},
		&cli.StringFlag{Name: "tdmrep", Usage: "the site's /.well-known/tdmrep.json `FILE`, for --purpose"},
	}
}

// purposeCheck answers allowed --purpose.
type purposeCheck struct {
	purpose aipref.Purpose
	tdm     *aipref.TDMRepFile
}

// allowedPurpose reads --purpose and --tdmrep (nil: no --purpose).
func allowedPurpose(c *cli.Context) (*purposeCheck, error) {
	label := c.String("purpose")
	if label == "" {
		if c.String("tdmrep") != "" {
			return nil, cli.Exit("allowed: --tdmrep is for --purpose", exitUsage)
		}
		return nil, nil
	}
	p, note, err := aipref.ParsePurpose(label)
	if err != nil {
		return nil, cli.Exit("--purpose: "+err.Error(), exitUsage)
	}
	if note != "" && !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "robofilter: note: --purpose %s: %s\n", label, note)
	}
	pc := &purposeCheck{purpose: p}
	if name := c.String("tdmrep"); name != "" {
		if pc.tdm, err = loadTDMRep(c, name); err != nil {
			return nil, err
		}
	}
	return pc, nil
}

// purposeVerdict is the answer for one URL: it may be used when it may
// be fetched and its preferences do not disallow the purpose.
type purposeVerdict struct {
	Allowed bool
	fetch   robotstxt.Decision
	use     *aipref.Decision // nil when it may not be fetched
	set     aipref.Set
}

func (pc *purposeCheck) verdict(rules *robotstxt.AgentRules, url string, fetch robotstxt.Decision) purposeVerdict {
	v := purposeVerdict{fetch: fetch}
	if !fetch.Allowed {
		return v
	}
	for _, st := range rules.Usage(url).Statements() {
		v.set.Add(st)
	}
	if rule, ok := pc.tdm.Match(url); ok {
		v.set.Add(rule.Statement())
	}
	d := v.set.Decide(pc.purpose)
	v.use, v.Allowed = &d, d.Allowed
	return v
}

// explain names what decided: the fetch rule when the URL may not be
// fetched, else the line that disallows the purpose, or what allows it.
func (v purposeVerdict) explain() string {
	if v.use == nil {
		return v.fetch.String()
	}
	if !v.Allowed {
		return fmt.Sprintf("%s disallowed by %s", v.use.Category, statementLine(v.use.By))
	}
	prefs, by := v.set.Prefs()
	var allowing []string
	for c, val := range prefs {
		if val == aipref.Allowed && by[c] != nil {
			allowing = append(allowing, fmt.Sprintf("%s allowed by %s", aipref.Category(c), statementLine(by[c])))
		}
	}
	if len(allowing) == 0 {
		return v.fetch.String() + "; no preference stated for " + v.use.Purpose
	}
	return v.fetch.String() + "; " + strings.Join(allowing, "; ")
}

// statementLine names a site file's statement by its line.
func statementLine(st *aipref.Statement) string {
	if st == nil {
		return "a statement"
	}
	switch {
	case strings.HasPrefix(st.Origin, "robots.txt "):
		field := strings.TrimPrefix(st.Origin, "robots.txt ")
		if st.Path != "" {
			return fmt.Sprintf("line %d: %s: %s %s", st.Line, field, st.Path, st.Value)
		}
		return fmt.Sprintf("line %d: %s: %s", st.Line, field, st.Value)
	case st.Origin == "tdmrep.json":
		return fmt.Sprintf("tdmrep.json line %d: location %q, %s", st.Line, st.Path, st.Value)
	}
	return st.String()
}

// jsonPurposeVerdict is a line of allowed --purpose --format jsonl.
type jsonPurposeVerdict struct {
	jsonVerdict
	Purpose      string           `json:"purpose"`
	FetchAllowed bool             `json:"fetch_allowed"`
	Use          *aipref.Decision `json:"use,omitempty"`
}

func (v purposeVerdict) json(base jsonVerdict, explain bool) any {
	j := jsonPurposeVerdict{jsonVerdict: base, FetchAllowed: v.fetch.Allowed, Use: v.use}
	j.Allowed = v.Allowed
	if v.use != nil {
		j.Purpose = v.use.Purpose
		if !explain {
			u := *v.use
			u.By = nil
			j.Use = &u
		}
	}
	return j
}

// usageReport lists a group's Content-Usage and Content-Signal lines for
// the robots report (plain): add is the report's line adder.
func usageReport(g robotstxt.Group, add func(line int, format string, args ...any)) {
	for _, u := range g.Usages {
		what := strings.ToLower(u.Field())
		if u.Path != "" {
			what += " " + u.Path
		}
		says := u.Prefs.String()
		if says == "" {
			says = "nothing usable"
		}
		add(u.Line, "%s %s (%s)%s", what, u.Value, says, usageAgents(g, u))
	}
}

// usageAgents names the robots a line concerns when they are not the
// whole group.
func usageAgents(g robotstxt.Group, u robotstxt.Usage) string {
	if u.AgentsFrom == 0 && u.Agents >= len(g.Agents) {
		return ""
	}
	var names []string
	for _, a := range g.Agents[u.AgentsFrom:u.Agents] {
		names = append(names, a.Name)
	}
	return " (for " + strings.Join(names, ", ") + ")"
}

// jsonUsage is a Content-Usage or Content-Signal line of the robots
// report (jsonl).
type jsonUsage struct {
	Line        int          `json:"line"`
	Field       string       `json:"field"`
	Agents      []string     `json:"agents"`
	Path        string       `json:"path,omitempty"`
	Value       string       `json:"value"`
	Preferences aipref.Prefs `json:"preferences"`
}

func usageJSON(g robotstxt.Group) []jsonUsage {
	var out []jsonUsage
	for _, u := range g.Usages {
		names := []string{}
		for _, a := range g.Agents[u.AgentsFrom:u.Agents] {
			names = append(names, a.Name)
		}
		out = append(out, jsonUsage{Line: u.Line, Field: u.Field(), Agents: names, Path: u.Path, Value: u.Value, Preferences: u.Prefs})
	}
	return out
}

// answer prints the verdict for one URL with --purpose, as allowed prints
// its others, and notes a URL that may not be used.
func (pc *purposeCheck) answer(out *bufio.Writer, enc *json.Encoder, rules *robotstxt.AgentRules, url string, fetch robotstxt.Decision, jsonl, explain bool, anyDisallowed *bool) error {
	v := pc.verdict(rules, url, fetch)
	*anyDisallowed = *anyDisallowed || !v.Allowed
	if jsonl {
		base := jsonVerdict{URL: url}
		if explain {
			base.explain(fetch)
		}
		return enc.Encode(v.json(base, explain))
	}
	verdict := "allowed"
	if !v.Allowed {
		verdict = "disallowed"
	}
	var err error
	if explain {
		_, err = fmt.Fprintf(out, "%s\t%s\t%s\n", verdict, url, v.explain())
	} else {
		_, err = fmt.Fprintf(out, "%s\t%s\n", verdict, url)
	}
	return err
}
