// Command robofilter filters HTML and XML documents for web indexing
// pipelines: indexable text, an archive-safe copy and followable links,
// honouring every robots directive the author wrote. See README.md and docs/.
package main

import "os"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
