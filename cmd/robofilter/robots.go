package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/robotstxt"
)

// robotsModeFlags are the flags choosing how robots.txt is read, shared by
// the allowed and robots commands.
func robotsModeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "mode", Value: "rfc9309", Usage: "rules to follow: `MODE` is rfc9309 or v1 (\"HTTP: The Definitive Guide\": first record, substring names, first match)"},
		&cli.BoolFlag{Name: "google", Usage: "RFC 9309 with Google's leniencies (key typos, missing colon, index.html) and no URL normalisation"},
		&cli.StringFlag{Name: "format", Value: "plain", Usage: "output `FORMAT`: plain or jsonl"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print no warnings about robots.txt lines"},
	}
}

// robotsOptions reads the mode flags.
func robotsOptions(c *cli.Context) (robotstxt.Options, error) {
	mode, err := robotstxt.ParseMode(c.String("mode"))
	if err != nil {
		return robotstxt.Options{}, cli.Exit(err.Error(), exitUsage)
	}
	if c.Bool("google") {
		if mode == robotstxt.V1 {
			return robotstxt.Options{}, cli.Exit("--google applies to rfc9309 mode, not v1", exitUsage)
		}
		mode = robotstxt.Google
	}
	if f := c.String("format"); f != "plain" && f != "jsonl" {
		return robotstxt.Options{}, cli.Exit(fmt.Sprintf("unknown format %q (want plain or jsonl)", f), exitUsage)
	}
	return robotstxt.Options{Mode: mode}, nil
}

// readRobotsFile reads a robots.txt file ("-" is stdin) as far as Parse
// uses it (robotstxt.ReadBody): memory does not grow with the file, and
// a file of gigabytes (or /dev/zero) is not read to its end. Parse then
// warns that the rest is ignored.
// Its error comes without the file's name, which the caller puts first.
func readRobotsFile(c *cli.Context, name string, opts robotstxt.Options) ([]byte, error) {
	if name == "-" {
		return robotstxt.ReadBody(input.BareReadErrors(c.App.Reader), opts)
	}
	f, err := openInput(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return robotstxt.ReadBody(input.BareReadErrors(f), opts)
}

// printRobotsWarnings writes a file's warnings to stderr, unless --quiet,
// in the form of the documents' (SPEC section 6): a robots.txt warning is
// about a whole line, so its column is the line's first.
func printRobotsWarnings(c *cli.Context, name string, r *robotstxt.Robots) {
	if c.Bool("quiet") {
		return
	}
	w := c.App.ErrWriter
	warns := r.Warnings()
	for i, warn := range warns {
		if i == filter.MaxWarnings {
			// As for documents: a file of bad lines does not flood stderr.
			fmt.Fprintf(w, "robofilter: %s: note: %d more warnings not shown (at most %d per file)\n", name, len(warns)-i, filter.MaxWarnings)
			break
		}
		msg := warn.Message
		if len(msg) > filter.MaxWarningBytes {
			msg = strings.ToValidUTF8(msg[:filter.MaxWarningBytes], "") + "…"
		}
		fmt.Fprintf(w, "robofilter: %s:%d:1: warning: %s\n", name, warn.Line, msg)
	}
}

func robotsCommand() *cli.Command {
	return &cli.Command{
		Name:      "robots",
		Usage:     "report what a robots.txt file says: groups, rules, extension fields, unusable lines",
		UsageText: "robofilter robots [--mode rfc9309|v1] [--google] [--format plain|jsonl] FILE...",
		Description: `Parses each robots.txt FILE ("-" for stdin) and prints its groups with their
user-agents, rules and extension fields (Crawl-delay, Request-rate, Visit-time,
Comment, Robot-version), then the file-wide fields (Sitemap, Host, Clean-param),
each with its line number. Every line that could not be used is reported on
stderr as "robofilter: FILE:LINE:1: warning: why" (the first 1,000). UTF-8 and UTF-16 files are
read, with or without a byte order mark. The first 512 KiB of text are parsed
(RFC 9309 asks for 500 KiB at least) and no more is read; a warning says the
rest of a longer file is ignored.

An extension line between two User-agent lines concerns only the robots named
above it; the report says so: "crawl-delay 10s (for mybot)".

Examples:
   robofilter robots robots.txt
   robofilter robots --mode v1 robots.txt
   curl -s https://example.com/robots.txt | robofilter robots --format jsonl -

Exit status: 0 success (warnings included), 1 a file could not be read, 2 usage error.`,
		Flags:  robotsModeFlags(),
		Action: runRobots,
	}
}

func runRobots(c *cli.Context) error {
	opts, err := robotsOptions(c)
	if err != nil {
		return err
	}
	if c.NArg() == 0 {
		return cli.Exit("robots: no robots.txt file given (use - for stdin)", exitUsage)
	}
	out := bufio.NewWriter(c.App.Writer)
	status := exitOK
	for _, name := range c.Args().Slice() {
		body, err := readRobotsFile(c, name, opts)
		if err != nil {
			// The reports before it come first, as they were read.
			if err := out.Flush(); err != nil {
				return cli.Exit(fmt.Sprintf("writing output: %v", err), exitFailure)
			}
			fmt.Fprintf(c.App.ErrWriter, "robofilter: %s: error: %v\n", name, err)
			status = exitFailure
			continue
		}
		r := robotstxt.Parse(body, opts)
		if c.String("format") == "jsonl" {
			err = writeRobotsJSONL(out, name, r)
		} else {
			err = writeRobotsPlain(out, name, r)
		}
		if err != nil {
			return cli.Exit(fmt.Sprintf("writing output: %v", err), exitFailure)
		}
		printRobotsWarnings(c, name, r)
	}
	if err := out.Flush(); err != nil {
		return cli.Exit(fmt.Sprintf("writing output: %v", err), exitFailure)
	}
	if status != exitOK {
		return cli.Exit("", status)
	}
	return nil
}

// reportLine is one line of a group in the plain report.
type reportLine struct {
	line int
	text string
}

// placeNote names the robots an extension line concerns when it is not
// the whole group.
func placeNote(g robotstxt.Group, p robotstxt.Place) string {
	if p.Agents >= len(g.Agents) {
		return ""
	}
	names := make([]string, p.Agents)
	for i := range names {
		names[i] = g.Agents[i].Name
	}
	return " (for " + strings.Join(names, ", ") + ")"
}

func writeRobotsPlain(w *bufio.Writer, name string, r *robotstxt.Robots) error {
	fmt.Fprintf(w, "file %s (%s, %s, %d bytes, %d lines)\n", name, r.Mode(), r.Encoding(), r.Size(), r.Lines())
	for _, g := range r.Groups() {
		names := make([]string, len(g.Agents))
		for i, a := range g.Agents {
			names[i] = a.Name
		}
		fmt.Fprintf(w, "group line %d: %s", g.Line, strings.Join(names, ", "))
		if g.Skipped {
			fmt.Fprintf(w, " (skipped: Robot-version %s)", g.RobotVersion)
		}
		fmt.Fprintln(w)
		var lines []reportLine
		add := func(line int, format string, args ...any) {
			lines = append(lines, reportLine{line, fmt.Sprintf(format, args...)})
		}
		if g.RobotVersion != "" && !g.Skipped {
			rules := "1.0 rules"
			if g.Proposal {
				rules = "1996 proposal rules"
			}
			add(g.RobotVersionLine, "robot-version %s (%s)", g.RobotVersion, rules)
		}
		for _, rule := range g.Rules {
			directive := "disallow"
			if rule.Allow {
				directive = "allow"
			}
			if rule.Pattern == "" {
				add(rule.Line, "%s (empty)", directive)
				continue
			}
			add(rule.Line, "%s %s", directive, rule.Pattern)
		}
		for _, cd := range g.CrawlDelays {
			add(cd.Line, "crawl-delay %s%s", cd.Delay, placeNote(g, cd.Place))
		}
		for _, rr := range g.RequestRates {
			add(rr.Line, "request-rate %s (one request every %s)%s", rr, rr.Interval(), placeNote(g, rr.Place))
		}
		for _, vt := range g.VisitTimes {
			add(vt.Line, "visit-time %s%s", vt.TimeWindow, placeNote(g, vt.Place))
		}
		for _, cm := range g.Comments {
			add(cm.Line, "comment %s%s", cm.Text, placeNote(g, cm.Place))
		}
		usageReport(g, add)
		sort.SliceStable(lines, func(i, j int) bool { return lines[i].line < lines[j].line })
		for _, l := range lines {
			fmt.Fprintf(w, "  line %d: %s\n", l.line, l.text)
		}
	}
	for _, s := range r.Sitemaps() {
		fmt.Fprintf(w, "sitemap line %d: %s\n", s.Line, s.URL)
	}
	for _, h := range r.Hosts() {
		fmt.Fprintf(w, "host line %d: %s\n", h.Line, h.Name)
	}
	for _, cp := range r.CleanParams() {
		fmt.Fprintf(w, "clean-param line %d: %s", cp.Line, strings.Join(cp.Params, "&"))
		if cp.Path != "" {
			fmt.Fprintf(w, " under %s", cp.Path)
		}
		fmt.Fprintln(w)
	}
	if n := len(r.Warnings()); n > 0 {
		fmt.Fprintf(w, "%d %s about unusable lines\n", n, pick(n == 1, "warning", "warnings"))
	}
	return w.Flush()
}

// JSONL records of the robots report.
type (
	jsonRobotsFile struct {
		Type     string `json:"type"`
		File     string `json:"file"`
		Mode     string `json:"mode"`
		Encoding string `json:"encoding"`
		Bytes    int    `json:"bytes"`
		Lines    int    `json:"lines"`
	}
	jsonAgent struct {
		Name  string `json:"name"`
		Token string `json:"token"`
		Line  int    `json:"line"`
	}
	jsonRule struct {
		Line      int    `json:"line"`
		Directive string `json:"directive"`
		Pattern   string `json:"pattern"`
	}
	jsonExtension struct {
		Line     int      `json:"line"`
		Agents   []string `json:"agents"`
		Seconds  *float64 `json:"seconds,omitempty"`
		Requests int      `json:"requests,omitempty"`
		Window   string   `json:"window,omitempty"`
		Text     *string  `json:"text,omitempty"`
	}
	jsonGroup struct {
		Type         string          `json:"type"`
		File         string          `json:"file"`
		Line         int             `json:"line"`
		Agents       []jsonAgent     `json:"agents"`
		RobotVersion string          `json:"robot_version,omitempty"`
		Proposal     bool            `json:"proposal"`
		Skipped      bool            `json:"skipped"`
		Rules        []jsonRule      `json:"rules"`
		CrawlDelay   []jsonExtension `json:"crawl_delay,omitempty"`
		RequestRate  []jsonExtension `json:"request_rate,omitempty"`
		VisitTime    []jsonExtension `json:"visit_time,omitempty"`
		Comment      []jsonExtension `json:"comment,omitempty"`
		ContentUsage []jsonUsage     `json:"content_usage,omitempty"` // and Content-Signal lines (aipref.go)
	}
	jsonFileField struct {
		Type   string   `json:"type"`
		File   string   `json:"file"`
		Line   int      `json:"line"`
		URL    string   `json:"url,omitempty"`
		Host   string   `json:"host,omitempty"`
		Params []string `json:"params,omitempty"`
		Path   string   `json:"path,omitempty"`
	}
	jsonWarning struct {
		Type    string `json:"type"`
		File    string `json:"file"`
		Line    int    `json:"line"`
		Message string `json:"message"`
	}
)

func writeRobotsJSONL(w *bufio.Writer, name string, r *robotstxt.Robots) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	emit := func(v any) {
		// Encoding these plain structs cannot fail; write errors surface at Flush.
		_ = enc.Encode(v)
	}
	emit(jsonRobotsFile{Type: "file", File: name, Mode: r.Mode().String(), Encoding: r.Encoding(), Bytes: r.Size(), Lines: r.Lines()})
	for _, g := range r.Groups() {
		jg := jsonGroup{Type: "group", File: name, Line: g.Line, RobotVersion: g.RobotVersion, Proposal: g.Proposal, Skipped: g.Skipped, Rules: []jsonRule{}}
		for _, a := range g.Agents {
			jg.Agents = append(jg.Agents, jsonAgent{Name: a.Name, Token: a.Token, Line: a.Line})
		}
		for _, rule := range g.Rules {
			directive := "disallow"
			if rule.Allow {
				directive = "allow"
			}
			jg.Rules = append(jg.Rules, jsonRule{Line: rule.Line, Directive: directive, Pattern: rule.Pattern})
		}
		ext := func(p robotstxt.Place) jsonExtension {
			names := make([]string, p.Agents)
			for i := range names {
				names[i] = g.Agents[i].Name
			}
			return jsonExtension{Line: p.Line, Agents: names}
		}
		for _, cd := range g.CrawlDelays {
			e := ext(cd.Place)
			secs := cd.Delay.Seconds()
			e.Seconds = &secs
			jg.CrawlDelay = append(jg.CrawlDelay, e)
		}
		for _, rr := range g.RequestRates {
			e := ext(rr.Place)
			secs := rr.Per.Seconds()
			e.Seconds, e.Requests = &secs, rr.Requests
			if rr.Window != nil {
				e.Window = rr.Window.String()
			}
			jg.RequestRate = append(jg.RequestRate, e)
		}
		for _, vt := range g.VisitTimes {
			e := ext(vt.Place)
			e.Window = vt.TimeWindow.String()
			jg.VisitTime = append(jg.VisitTime, e)
		}
		for _, cm := range g.Comments {
			e := ext(cm.Place)
			text := cm.Text
			e.Text = &text
			jg.Comment = append(jg.Comment, e)
		}
		jg.ContentUsage = usageJSON(g)
		emit(jg)
	}
	for _, s := range r.Sitemaps() {
		emit(jsonFileField{Type: "sitemap", File: name, Line: s.Line, URL: s.URL})
	}
	for _, h := range r.Hosts() {
		emit(jsonFileField{Type: "host", File: name, Line: h.Line, Host: h.Name})
	}
	for _, cp := range r.CleanParams() {
		emit(jsonFileField{Type: "clean-param", File: name, Line: cp.Line, Params: cp.Params, Path: cp.Path})
	}
	for _, warn := range r.Warnings() {
		emit(jsonWarning{Type: "warning", File: name, Line: warn.Line, Message: warn.Message})
	}
	return w.Flush()
}
