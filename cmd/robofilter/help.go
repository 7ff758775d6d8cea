package main

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"
)

func init() {
	// -V as rg and curl have it.
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Aliases: []string{"V"}, Usage: "print the version"}
	cli.FlagStringer = flagString
}

// flagString is a flag's line in the help: its names, short first, with
// a placeholder that says what goes there (`URL` in the usage, else
// VALUE), then the usage and the default of a flag with a value, when
// it has one (a boolean's is off, and not shown).
func flagString(f cli.Flag) string {
	df, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return ""
	}
	placeholder, usage := "", df.GetUsage()
	if i := strings.IndexByte(usage, '`'); i >= 0 {
		if j := strings.IndexByte(usage[i+1:], '`'); j >= 0 {
			placeholder = usage[i+1 : i+1+j]
			usage = usage[:i] + placeholder + usage[i+1+j+1:]
		}
	}
	if !df.TakesValue() {
		placeholder = ""
	} else if placeholder == "" {
		placeholder = "VALUE"
	}
	names := append([]string(nil), f.Names()...)
	// Short names first: -q, --quiet.
	for i := 1; i < len(names); i++ {
		if len(names[i]) == 1 {
			names[0], names[i] = names[i], names[0]
		}
	}
	var parts []string
	for _, n := range names {
		if len(n) == 1 {
			parts = append(parts, "-"+n)
		} else {
			parts = append(parts, "--"+n)
		}
	}
	s := strings.Join(parts, ", ")
	if placeholder != "" {
		s += " " + placeholder
	}
	if df.TakesValue() {
		if def := df.GetValue(); def != "" && def != "0" && def != `""` {
			usage += " (default " + strings.Trim(def, `"`) + ")"
		}
	}
	return s + "\t" + usage
}

// flagErrors match the errors of Go's flag package, which urfave/cli
// passes on; they write every flag with one dash. Compiled when a usage
// error needs them, not at every start (a process a file pays its start
// for each file).
var flagErrors = sync.OnceValue(func() (e struct{ unknownFlag, missingValue, badValue *regexp.Regexp }) {
	e.unknownFlag = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	e.missingValue = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
	e.badValue = regexp.MustCompile(`^invalid value "(.*)" for flag -+([^:]*): (.*)$`)
	return e
})

// usageMessage rewrites a usage error of the flag parser for the user:
// a flag spelt as it was written (--bogus, not -bogus), the nearest flag
// of the command suggested for an unknown one, and where to read more.
func usageMessage(c *cli.Context, args []string, err error) string {
	msg := err.Error()
	command := "robofilter"
	var flags []cli.Flag
	if c != nil && c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		command += " " + c.Command.Name
		flags = c.Command.Flags
	} else if c != nil && c.App != nil {
		flags = c.App.Flags
	}
	see := " (see " + command + " --help)"
	fe := flagErrors()
	if m := fe.unknownFlag.FindStringSubmatch(msg); m != nil {
		name := m[1]
		s := fmt.Sprintf("unknown flag %s", asWritten(args, name))
		if near := nearestFlag(name, flags); near != "" {
			s += fmt.Sprintf(" (did you mean %s?)", near)
		}
		return s + see
	}
	if m := fe.missingValue.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s needs a value%s", asWritten(args, m[1]), see)
	}
	if m := fe.badValue.FindStringSubmatch(msg); m != nil {
		why := m[3]
		if strings.Contains(why, "parse error") || strings.Contains(why, "invalid syntax") {
			why = "not a whole number"
		}
		return fmt.Sprintf("%s %q: %s%s", asWritten(args, m[2]), m[1], why, see)
	}
	return msg + see
}

// asWritten is a flag as the user wrote it: "-bogus", "--bogus" (what
// came before "=" too).
func asWritten(args []string, name string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		flag, _, _ := strings.Cut(a, "=")
		if strings.HasPrefix(flag, "-") && strings.TrimLeft(flag, "-") == name {
			return flag
		}
	}
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// nearestFlag is the flag of flags nearest to name (at most a third of
// its letters apart, or name a prefix of it), written with its dashes, or
// "" when none is near.
func nearestFlag(name string, flags []cli.Flag) string {
	best, bestDist := "", len(name)/3+1
	for _, f := range flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		for _, n := range f.Names() {
			if len(n) < 2 {
				continue
			}
			d := editDistance(strings.ToLower(name), n)
			if len(name) >= 3 && strings.HasPrefix(n, strings.ToLower(name)) {
				d = 1
			}
			if d < bestDist {
				best, bestDist = "--"+n, d
			}
		}
	}
	return best
}

// editDistance is the number of letters to insert, delete, replace or
// swap with the next to make a into b (optimal string alignment).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
