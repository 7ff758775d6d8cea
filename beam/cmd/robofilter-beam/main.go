// Command robofilter-beam runs robofilter over a crawl's WARC files as an
// Apache Beam pipeline: in this process on Prism (the default: no network,
// no Docker), or on Dataflow, Flink or Spark (docs/beam.md). The same
// binary is the worker: Beam starts it with --worker.
//
//	robofilter-beam --paths warc.paths.gz --input-base https://data.commoncrawl.org/ --output out/
//
// Exit status: 0 when every WARC file was read to its end; 1 when one
// could not be (its summary row says why; the others were worked on) or
// the pipeline failed; 2 for a usage error.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/robofilter/robofilter/beam/beamcrawl"
)

var (
	paths     = flag.String("paths", "", "a paths list of WARC files, as Common Crawl publishes them (warc.paths.gz, or plain): one path a line, relative to --input-base")
	inputBase = flag.String("input-base", "", "what the paths of --paths are relative to: a folder, https://data.commoncrawl.org/, s3://commoncrawl/, gs://…")
	inputGlob = flag.String("input", "", "a glob of WARC files, instead of --paths (a local folder, gs:// or s3://); their names start after the glob's folder")
	output    = flag.String("output", "", "the prefix the outputs go under (a folder, gs://…, s3://…)")
	resume    = flag.Bool("resume", false, "skip the WARC files whose outputs a run before wrote (their summary rows are read back)")
	retry     = flag.Bool("retry-failed", false, "with --resume, work again on the WARC files whose summary row has an error")
	agent     = flag.String("agent", "", "the robot: META tags named for it, botname: X-Robots-Tag rules and robotN- classes naming it apply too")
	dialects  = flag.String("dialects", "all", "in-page dialects honoured: all, or a comma-separated list of profile, nocontent, yandex, googleoff, nosnippet, rel")
	profile   = flag.Bool("require-profile", false, "honour the Robot Exclusion Profile's classes only when <head profile> names the profile")
	maxDepth  = flag.Int("max-depth", 0, "nesting limit (0: the default, 250,000 levels)")
	maxToken  = flag.Int("max-token", 0, "longest tag, DOCTYPE or CDATA section in bytes (0: the default, 16 MiB)")
	purpose   = flag.String("purpose", "", "the use you have in mind, a label of the AI Preferences vocabulary (train-ai, ai-use, search, all): a document whose stated preferences disallow it gets no text (its record says why)")
	regions   = flag.Bool("regions", false, "add the excluded regions to each JSON Lines record")
	jobs      = flag.Int("jobs", 1, "documents of one WARC file processed at once (the runner works on several files at once already)")
)

func main() {
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: robofilter-beam (--paths LIST [--input-base BASE] | --input GLOB) --output PREFIX [flags]\n\n"+
			"Beam's flags (--runner=prism|dataflow|flink|spark, --endpoint, --environment_type, --worker_binary …) are among these:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	// A worker (Beam starts this binary with --worker) runs the harness
	// here and does not come back.
	beam.Init()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "robofilter-beam: unexpected arguments %q: inputs are named with --paths or --input\n", flag.Args())
		os.Exit(2)
	}
	cfg := beamcrawl.Config{Paths: *paths, InputBase: *inputBase, Input: *inputGlob, Output: *output,
		Resume: *resume, RetryFailed: *retry,
		Settings: beamcrawl.Settings{Agent: *agent, Dialects: *dialects, RequireProfile: *profile,
			MaxDepth: *maxDepth, MaxTokenSize: *maxToken, Purpose: *purpose, Regions: *regions, Jobs: *jobs}}
	if err := cfg.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "robofilter-beam:", err)
		os.Exit(2)
	}
	if r := flag.Lookup("runner").Value.String(); r == "dataflow" || r == "DataflowRunner" {
		// Dataflow's workers see none of this machine's files.
		for _, name := range []string{cfg.Paths, cfg.InputBase, cfg.Input, cfg.Output} {
			if name != "" && !strings.Contains(name, "://") {
				fmt.Fprintf(os.Stderr, "robofilter-beam: %s is a local name: Dataflow's workers read and write gs://, s3:// or https:// names\n", name)
				os.Exit(2)
			}
		}
	}
	os.Exit(run(context.Background(), cfg))
}

func run(ctx context.Context, cfg beamcrawl.Config) int {
	dryRun := flagSet("dry_run")
	if !dryRun {
		// The workers read the list again; reading it here first fails a
		// list cut short before a job is started.
		files, err := beamcrawl.Files(ctx, cfg)
		if err != nil {
			fmt.Fprintln(os.Stderr, "robofilter-beam:", err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "robofilter-beam: %d WARC files\n", len(files))
	}
	p, s := beam.NewPipelineWithRoot()
	if _, err := beamcrawl.Build(s, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "robofilter-beam:", err)
		return 2
	}
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		fmt.Fprintln(os.Stderr, "robofilter-beam: the pipeline failed:", err)
		return 1
	}
	if dryRun || flagSet("async") || flagSet("execute_async") {
		return 0
	}
	if res == nil {
		fmt.Fprintln(os.Stderr, "robofilter-beam: the runner gave no metrics: how many WARC files were worked on and how many skipped as done before (--resume) is not known")
	} else {
		counts := map[string]int64{}
		for _, c := range res.Metrics().AllMetrics().Counters() {
			if c.Key.Namespace == beamcrawl.MetricsNamespace {
				counts[c.Key.Name] += c.Result()
			}
		}
		fmt.Fprintf(os.Stderr, "robofilter-beam: %d WARC files worked on, %d skipped as done before\n",
			counts[beamcrawl.MetricProcessed], counts[beamcrawl.MetricSkipped])
	}
	failed, err := beamcrawl.Report(ctx, cfg.Output, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "robofilter-beam: reading the summary:", err)
		return 1
	}
	if failed > 0 {
		return 1
	}
	return 0
}

func flagSet(name string) bool {
	f := flag.Lookup(name)
	return f != nil && f.Value.String() == "true"
}
