// Package robotstxt parses robots.txt files and answers whether a robot may
// fetch a URL.
//
// A file is parsed once, by [Parse] or [FromResponse], into a [Robots] value
// that never fails to build: a line robofilter cannot use becomes a
// [Warning] with its line number and the rest of the file still counts.
// [ReadBody] reads a body only as far as it is parsed ([Options.MaxBytes]),
// however long the file.
// A Robots value is immutable and safe for concurrent use; [Robots.ForAgent]
// returns the rules of one robot, compiled on first use, for matching many
// URLs fast.
//
// Three rule sets are available through [Options.Mode]:
//
//   - [RFC9309] (the default): RFC 9309. The robot is found by its product
//     token (letters, "-" and "_"), case-insensitively; a User-agent value is
//     read up to its first other character, with a warning; all groups
//     naming the robot are merged, else the
//     "*" groups apply; the longest matching pattern wins and Allow wins a
//     tie; "*" matches any run of characters and a final "$" anchors the end;
//     /robots.txt itself is always allowed; URLs and patterns are compared
//     after percent-normalisation (non-ASCII octets encoded, unreserved
//     characters decoded, hex digits upper-cased).
//   - [Google]: RFC 9309 as Google's open-source matcher implements it, with
//     its leniencies: misspelt keys ("dissallow", "useragent") and keys
//     matched by prefix, a missing colon, "index.html" allowing its
//     directory, overlong lines cut, the robot's name compared as given, no
//     special case for /robots.txt and no percent-normalisation of the URL.
//   - [V1]: robots.txt as described in "HTTP: The Definitive Guide" (the 1994
//     standard and the 1996 draft): records end at blank lines, the first
//     record naming a substring of the robot's name applies (else the first
//     "*" record), the first matching rule in file order decides, rules are
//     plain prefixes, and %XX escapes are decoded before comparing, except %2F.
//
// In every mode a record whose Robot-version (directly after its User-agent
// lines) is 2.x follows the 1996 robots.txt 2.0 proposal: explicit Allow
// first, then Disallow, then wildcard Allow. See docs/robotstxt.md for the choices
// made where the sources are silent.
//
// The extension fields are parsed and reported: Sitemap, Host and
// Clean-param for the whole file; Crawl-delay, Request-rate, Visit-time,
// Comment and Robot-version for the agents of their group; Content-Usage
// (draft-ietf-aipref-attach-05) and Content-Signal, AI usage preferences
// scoped to paths as Allow and Disallow are, which [AgentRules.Usage]
// matches against a URL (docs/aipref.md).
package robotstxt
