package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/input"
	"github.com/robofilter/robofilter/input/httpresp"
	"github.com/robofilter/robofilter/robotstxt"
	"github.com/robofilter/robofilter/weburl"
)

func allowedCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "robots", Usage: "robots.txt `FILE` (- for stdin, when the URLs are arguments)"},
		&cli.StringFlag{Name: "agent", Usage: "the robot's product token (`NAME`), e.g. FooBot"},
		&cli.StringFlag{Name: "status", Usage: "HTTP status `CODE` the robots.txt fetch got, or \"unreachable\": 2xx reads --robots, 304 too (the copy still in force, which it needs), other 3xx and 4xx allow all (v1: 401 and 403 disallow all), 5xx and unreachable disallow all"},
		&cli.BoolFlag{Name: "http", Usage: "--robots FILE is the HTTP response as sent (curl -siL saves it): its status is the fetch outcome, its body the file (gzip and deflate decoded)"},
		&cli.BoolFlag{Name: "explain", Usage: "add the deciding rule with its line number, or the reason"},
	}
	return &cli.Command{
		Name:      "allowed",
		Usage:     "say whether robots.txt lets a robot fetch URLs",
		UsageText: "robofilter allowed --robots FILE --agent NAME [--status CODE] [--mode rfc9309|v1] [--google] [--explain] [--format plain|jsonl] [URL...]",
		Description: `Prints one line per URL, "allowed<TAB>URL" or "disallowed<TAB>URL", for the
robot whose product token is --agent. The URLs are the arguments or, when
there are none, the lines of stdin. A URL is absolute or a path starting
with "/"; only its path and query count.

By default the rules are RFC 9309's: the groups naming the robot (else the
"*" groups) merged, the longest matching pattern wins, Allow wins a tie,
"*" and a final "$" are wildcards, /robots.txt is always allowed, and URLs
and patterns are compared after percent-normalisation. --mode v1 follows
"HTTP: The Definitive Guide": the first record whose name is inside the
robot's name, the first matching rule. --google adds Google's leniencies.
Records with "Robot-version: 2.0" follow the 1996 robots.txt 2.0 proposal.

--status gives the outcome of fetching robots.txt: with a 4xx or 5xx code
(or "unreachable") no file is needed.

Examples:
   robofilter allowed --robots robots.txt --agent FooBot https://example.com/private/a.html
   robofilter allowed --robots robots.txt --agent FooBot --explain < urls.txt
   robofilter allowed --robots robots.txt --agent FooBot --format jsonl --explain /a /b
   robofilter allowed --status 503 --agent FooBot https://example.com/
   curl -siL https://example.com/robots.txt | robofilter allowed --http --robots - --agent FooBot /a /b
   robofilter allowed --robots robots.txt --agent SuzySpider --mode v1 /private/suzy-stuff/taxes.txt

Exit status: 0 every URL allowed, 3 some URL disallowed, 1 input/output
error, 2 usage error.`,
		Flags:  append(append(flags, robotsModeFlags()...), allowedPurposeFlags()...),
		Action: runAllowed,
	}
}

// jsonVerdict is a line of `allowed --format jsonl`.
type jsonVerdict struct {
	Type    string `json:"type"` // "verdict"
	File    string `json:"file"` // the robots.txt file ("-": standard input, or --status alone)
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason,omitempty"`
	Line    int    `json:"line,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Status  *int   `json:"status,omitempty"`
}

// explain gives a verdict the decision's reason, and its rule or status
// (--explain).
func (v *jsonVerdict) explain(d robotstxt.Decision) {
	v.Reason = d.Reason.String()
	if d.Rule != nil {
		v.Line, v.Rule = d.Rule.Line, d.Rule.String()
	}
	if d.Reason == robotstxt.ReasonStatus {
		v.Status = &d.Status
	}
}

func runAllowed(c *cli.Context) error {
	opts, err := robotsOptions(c)
	if err != nil {
		return err
	}
	// Every missing flag named at once, without the help (--help has it).
	var missing []string
	if c.String("robots") == "" && !c.IsSet("status") {
		missing = append(missing, "--robots FILE (or --status CODE)")
	}
	if c.String("agent") == "" {
		missing = append(missing, "--agent NAME")
	}
	if len(missing) > 0 {
		return cli.Exit(fmt.Sprintf("allowed needs %s (see robofilter allowed --help)", strings.Join(missing, " and ")), exitUsage)
	}
	robots, err := loadAllowedRobots(c, opts)
	if err != nil {
		return err
	}
	purpose, err := allowedPurpose(c)
	if err != nil {
		return err
	}
	// Warnings about the flags and the URL arguments are the robots.txt
	// file's, at 0:0 (as X-Robots-Tag values are a document's); those
	// about URLs read from stdin are at their line of "-".
	flagsAt := c.String("robots")
	if flagsAt == "" {
		flagsAt = "-" // --status alone
	}
	agent := c.String("agent")
	if name, token := robotstxt.NameToken(agent), robotstxt.ProductToken(agent); name != token && opts.Mode != robotstxt.V1 && !c.Bool("quiet") {
		// User-agent lines are read up to their product token ("bot3" as
		// "bot"), so no group can be this robot's own.
		fmt.Fprintf(c.App.ErrWriter, "robofilter: %s:0:0: warning: --agent %q is not a product token (letters, \"-\" and \"_\"): no User-agent line can name it, as they are read up to %q\n", flagsAt, name, token)
	}
	rules := robots.ForAgent(agent)
	jsonl, explain := c.String("format") == "jsonl", c.Bool("explain")
	out := bufio.NewWriter(c.App.Writer)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	anyDisallowed := false
	check := func(url, at string) error {
		if !hasScheme(url) && !strings.HasPrefix(url, "/") && !c.Bool("quiet") {
			// Neither a URL nor a path from the root: Decide reads it as a
			// path from the root, which is most likely what was meant.
			fmt.Fprintf(c.App.ErrWriter, "robofilter: %s: warning: %q is neither an absolute URL nor a path starting with \"/\"; read as a path\n", at, url)
		}
		d := rules.Decide(url)
		if purpose != nil {
			return purpose.answer(out, enc, rules, url, d, jsonl, explain, &anyDisallowed)
		}
		anyDisallowed = anyDisallowed || !d.Allowed
		if jsonl {
			v := jsonVerdict{Type: "verdict", File: flagsAt, URL: url, Allowed: d.Allowed}
			if explain {
				v.explain(d)
			}
			return enc.Encode(v)
		}
		verdict := "allowed"
		if !d.Allowed {
			verdict = "disallowed"
		}
		if explain {
			_, err := fmt.Fprintf(out, "%s\t%s\t%s\n", verdict, url, d)
			return err
		}
		_, err := fmt.Fprintf(out, "%s\t%s\n", verdict, url)
		return err
	}
	if c.NArg() > 0 {
		for _, url := range c.Args().Slice() {
			if err := check(url, flagsAt+":0:0"); err != nil {
				return cli.Exit(fmt.Sprintf("writing output: %v", err), exitFailure)
			}
		}
	} else {
		skipped, err := eachLine(input.BareReadErrors(c.App.Reader), maxURLLine, func(n int, line string) error {
			if n == 1 {
				line = strings.TrimPrefix(line, "\uFEFF") // a byte order mark is no part of a URL
			}
			if url := strings.TrimSpace(line); url != "" {
				return check(url, fmt.Sprintf("-:%d:1", n))
			}
			return nil
		}, func(n int) {
			out.Flush() // the answers before it come first
			fmt.Fprintf(c.App.ErrWriter, "robofilter: -:%d:1: error: a URL longer than %d bytes: skipped\n", n, maxURLLine)
		})
		if err != nil {
			out.Flush()
			return cli.Exit(fmt.Sprintf("-: error: reading URLs: %v", err), exitFailure)
		}
		if skipped {
			if err := out.Flush(); err != nil {
				return cli.Exit(fmt.Sprintf("writing output: %v", err), exitFailure)
			}
			return cli.Exit("", exitFailure)
		}
	}
	if err := out.Flush(); err != nil {
		return cli.Exit(fmt.Sprintf("writing output: %v", err), exitFailure)
	}
	if anyDisallowed {
		return cli.Exit("", exitDisallowed)
	}
	return nil
}

// maxURLLine bounds a line of the URL list on standard input.
const maxURLLine = 1 << 20

// eachLine calls fn with each line of r (without its line end). A line
// longer than max is not read into memory: tooLong gets its number, the
// rest of the list is still read, and eachLine reports that one was
// skipped. An error of fn or of the reader ends it.
func eachLine(r io.Reader, max int, fn func(n int, line string) error, tooLong func(n int)) (skipped bool, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	over := false
	for n := 1; ; {
		part, more, err := br.ReadLine()
		if err == io.EOF {
			return skipped, nil
		}
		if err != nil {
			return skipped, err
		}
		if !over {
			line = append(line, part...)
			over = len(line) > max
		}
		if more {
			continue
		}
		if over {
			tooLong(n)
			skipped = true
		} else if err := fn(n, string(line)); err != nil {
			return skipped, err
		}
		line, over = line[:0], false
		n++
	}
}

// hasScheme reports whether s starts with a URL scheme and "://".
func hasScheme(s string) bool {
	i := weburl.SchemeEnd(s)
	return i > 0 && strings.HasPrefix(s[i:], "://")
}

// loadAllowedRobots builds the rules from --robots and --status (or the
// response --http reads).
func loadAllowedRobots(c *cli.Context, opts robotstxt.Options) (*robotstxt.Robots, error) {
	name := c.String("robots")
	if c.Bool("http") {
		return loadRobotsResponse(c, name, opts)
	}
	status := 200
	if s := c.String("status"); s != "" {
		code, err := parseFetchStatus(s)
		if err != nil {
			return nil, cli.Exit(err.Error(), exitUsage)
		}
		status = code
	}
	if status == 304 {
		// Not Modified: the copy cached before is still in force, and only
		// the caller has it. Without it nothing can be answered; allowing
		// everything would be wrong.
		if name == "" {
			return nil, cli.Exit("allowed: --status 304 (Not Modified) needs --robots FILE, the copy still in force", exitUsage)
		}
		status = 200
	}
	if status < 200 || status > 299 {
		// The fetch outcome alone decides: any file given is not read.
		return robotstxt.FromResponse(status, nil, opts), nil
	}
	switch {
	case name == "":
		return nil, cli.Exit("allowed: --robots FILE is needed (or --status with a 4xx or 5xx code)", exitUsage)
	case name == "-" && c.NArg() == 0:
		return nil, cli.Exit("allowed: robots.txt and the URLs cannot both come from stdin", exitUsage)
	}
	body, err := readRobotsFile(c, name, opts)
	if err != nil {
		return nil, cli.Exit(fmt.Sprintf("%s: error: %v", name, err), exitFailure)
	}
	r := robotstxt.FromResponse(status, body, opts)
	printRobotsWarnings(c, name, r)
	return r, nil
}

// loadRobotsResponse builds the rules from a robots.txt fetch saved as
// the HTTP response (--http): its status is the outcome (RFC 9309 section
// 2.3.1; of redirects, curl -L saves each response and the last counts).
func loadRobotsResponse(c *cli.Context, name string, opts robotstxt.Options) (*robotstxt.Robots, error) {
	switch {
	case c.IsSet("status"):
		return nil, cli.Exit("allowed: --http takes the status from the response: give --status or --http, not both", exitUsage)
	case name == "":
		return nil, cli.Exit("allowed: --http needs --robots FILE, the saved response", exitUsage)
	case name == "-" && c.NArg() == 0:
		return nil, cli.Exit("allowed: robots.txt and the URLs cannot both come from stdin", exitUsage)
	}
	var in io.Reader = input.BareReadErrors(c.App.Reader)
	if name != "-" {
		f, err := openInput(name)
		if err != nil {
			return nil, cli.Exit(fmt.Sprintf("%s: error: %v", name, err), exitFailure)
		}
		defer f.Close()
		in = input.BareReadErrors(f)
	}
	resp, err := httpresp.ReadSaved(in, "the input", func(msg string) {
		fmt.Fprintf(c.App.ErrWriter, "robofilter: %s:0:0: warning: %s\n", name, msg)
	})
	if err != nil {
		return nil, cli.Exit(fmt.Sprintf("%s: error: %v", name, err), exitFailure)
	}
	if resp.StatusCode == 304 {
		return nil, cli.Exit(fmt.Sprintf("%s: error: the response is 304 (Not Modified): the copy cached before is in force; give it with --robots FILE --status 304", name), exitFailure)
	}
	var body []byte
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		decoded, _, err := robofilter.FromResponse(resp, robofilter.Options{})
		if err == nil {
			body, err = robotstxt.ReadBody(decoded, opts)
		}
		if err != nil {
			return nil, cli.Exit(fmt.Sprintf("%s: error: %v", name, err), exitFailure)
		}
	}
	r := robotstxt.FromResponse(resp.StatusCode, body, opts)
	printRobotsWarnings(c, name, r)
	return r, nil
}

// parseFetchStatus reads --status: an HTTP status code or "unreachable".
func parseFetchStatus(s string) (int, error) {
	if strings.EqualFold(s, "unreachable") {
		return robotstxt.StatusUnreachable, nil
	}
	code, err := strconv.Atoi(s)
	if err != nil || code < 100 || code > 599 {
		return 0, fmt.Errorf("--status %q is not an HTTP status code (100-599) or \"unreachable\"", s)
	}
	return code, nil
}
