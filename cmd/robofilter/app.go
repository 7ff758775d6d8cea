package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// Exit statuses (SPEC section 6; issue 4 adds 3 for "a URL is disallowed").
const (
	exitOK         = 0
	exitFailure    = 1
	exitUsage      = 2
	exitDisallowed = 3
)

// newApp builds the whole command tree around the given streams, so tests
// run it in-process. It never calls os.Exit: run maps errors to statuses.
func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "robofilter",
		Usage:     "indexable text, archive-safe copy and followable links of HTML/XML, honouring robots directives",
		Version:   version,
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		// Errors travel back to run; nothing here may exit the process.
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError:    usageError,
		HideHelpCommand: true,
		// An X-Robots-Tag value has commas of its own: a repeated flag,
		// not a comma, separates values.
		DisableSliceFlagSeparator: true,
		Commands:                  commands(),
		Action:                    noCommand,
	}
	for _, c := range app.Commands {
		c.OnUsageError = usageError
	}
	return app
}

// commands lists every subcommand; each lives in a file of its own.
func commands() []*cli.Command {
	return []*cli.Command{
		textCommand(),
		archiveCommand(),
		linksCommand(),
		checkCommand(),
		extractCommand(),
		allowedCommand(),
		robotsCommand(),
	}
}

// noCommand runs when no command is named: the usage goes to stderr and
// the status is 2, a usage error (SPEC section 6). `robofilter help` and
// `robofilter help COMMAND` print the help --help prints, on stdout.
func noCommand(c *cli.Context) error {
	args := c.Args()
	switch {
	case args.Len() == 0:
		cli.HelpPrinter(c.App.ErrWriter, cli.AppHelpTemplate, c.App)
		return cli.Exit("no command given (see robofilter --help)", exitUsage)
	case args.First() == "help" && args.Len() == 1:
		return cli.ShowAppHelp(c)
	case args.First() == "help" && c.App.Command(args.Get(1)) != nil:
		return cli.ShowCommandHelp(c, args.Get(1))
	case args.First() == "help":
		return cli.Exit(fmt.Sprintf("no help for %q: it is no command (see robofilter --help)", args.Get(1)), exitUsage)
	}
	return cli.Exit(fmt.Sprintf("unknown command %q (see robofilter --help)", args.First()), exitUsage)
}

// usageError is the flag parser's error, for the user (usageMessage).
func usageError(c *cli.Context, err error, _ bool) error {
	args, _ := c.App.Metadata["args"].([]string)
	return cli.Exit(usageMessage(c, args, err), exitUsage)
}

// run executes the app and turns its outcome into an exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runWith(args, stdin, stdout, stderr, osTerminal)
}

// runWith is run with the test of whether a stream is a terminal (for
// progress), which tests give.
func runWith(args []string, stdin io.Reader, stdout, stderr io.Writer, terminal isTerminal) int {
	app := newApp(stdin, stdout, stderr)
	app.Metadata = map[string]any{"args": args, "terminal": terminal}
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && args[1] != "help" && app.Command(args[1]) == nil {
		fmt.Fprintf(stderr, "robofilter: unknown command %q (see robofilter --help)\n", args[1])
		return exitUsage
	}
	err := app.Run(permuteArgs(app, args))
	if err == nil {
		return exitOK
	}
	var coder cli.ExitCoder
	if errors.As(err, &coder) {
		if msg := strings.TrimSpace(err.Error()); msg != "" {
			fmt.Fprintf(stderr, "robofilter: %s\n", msg)
		}
		return coder.ExitCode()
	}
	// Errors urfave/cli produces itself (unknown flag, bad value) are usage errors.
	fmt.Fprintf(stderr, "robofilter: %s\n", usageMessage(nil, args, err))
	return exitUsage
}

// permuteArgs moves flags written after positional arguments in front of
// them, so `robofilter links doc.xml --xml` means what it says (urfave/cli
// otherwise takes `--xml` as a file name: urfave/cli #1177). A `--` ends
// flag processing as usual; "-" alone is a positional (stdin).
func permuteArgs(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	var cmd *cli.Command
	i := 1
	// Global flags (--help, --version) may stand before the command name.
	for ; i < len(args); i++ {
		if !strings.HasPrefix(args[i], "-") {
			cmd = app.Command(args[i])
			break
		}
	}
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	out := append([]string{}, args[:i+1]...)
	var positional []string
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		switch {
		case a == "--":
			positional = append(positional, rest[j+1:]...)
			j = len(rest)
		case a == "-" || !strings.HasPrefix(a, "-"):
			positional = append(positional, a)
		default:
			out = append(out, a)
			name := strings.TrimLeft(a, "-")
			if k := strings.IndexByte(name, '='); k >= 0 {
				continue
			}
			if takesValue[name] {
				if j+1 == len(rest) {
					// The flag's value is missing: left last, with no "--"
					// after it to be taken for the value, it is the usage
					// error it would be before the file names.
					return out
				}
				j++
				out = append(out, rest[j])
			}
		}
	}
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out
}
