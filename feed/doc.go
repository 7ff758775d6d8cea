// Package feed reads a feed or sitemap (Atom, RSS, RDF, a sitemap: any XML
// document whose entries an XPath selects) entry by entry, as the CLI's
// --entries mode does: each entry is its own document, its title and
// content read through robofilter's HTML pipeline (escaped HTML) or XML
// stage (inline markup), with what the feed says around the entry (the
// robots PI, robots classes on ancestors, open comment regions) honoured.
//
// Process is the one entry point; Entry is what it hands over for each
// entry. Memory is bounded by MaxEntryTags and MaxEntryBytes between two
// entries, whatever the feed's length (the XPath engine, xmlquery, holds a
// tree: Process prunes it to the path to the current entry).
package feed
