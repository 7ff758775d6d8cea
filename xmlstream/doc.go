// Package xmlstream is robofilter's XML stage: it reads an XML document once
// with its own scanner (scanner.go) and drives the format-neutral core
// (package filter) with the same calls the HTML stage makes, so XML gets
// the same three outputs: indexable text, archive-safe copy, links.
//
// # What it reads
//
//   - The robots PI, exactly as the 1999 draft defines it (ParseRobotsPI):
//     the first legal one is obeyed, wherever it is (prolog, DOCTYPE
//     internal subset, inside the document: then from there on, and the
//     core warns if content was already written); every illegal one, and
//     every later legal one, is reported with its position and ignored.
//   - XHTML elements (namespace http://www.w3.org/1999/xhtml) follow the
//     HTML rules: block and hidden elements, title, a/area/link/frame/iframe
//     links, <base href>, head profile, the Yandex <noindex> tag. Their
//     robots META is not obeyed (the PI decides in XML); a META that
//     disagrees with the PI, or with its absence, is warned about.
//   - Region markup on any element: class (Robot Exclusion Profile, per-robot
//     and nocontent classes) and data-nosnippet; the comment dialects
//     (googleoff/googleon, <!--noindex-->) through filter.Core.MarkerComment.
//   - Links: XLink href (namespace http://www.w3.org/1999/xlink, any prefix;
//     type simple or absent: the element's text is the anchor text;
//     locator: a reference; other types carry no link), Atom link@href and
//     content@src, RSS link text (RSS 2.0 without namespace under <rss>,
//     RSS 1.0 and 0.90 in theirs), RSS enclosure@url, sitemap loc, SVG
//     a@href. Each resolves against the caller's base, then xml:base
//     (nested, per element), then an XHTML <base href>.
//   - Text: all character data, CDATA included, outside comments and PIs.
//     An element boundary separates words; an element holding only
//     elements (a feed entry, a sitemap url) ends a line; XHTML elements
//     follow HTML's layout.
//
// # Attribute defaults
//
// An attribute default declared in the internal subset (<!ATTLIST …>,
// #FIXED or not) is the attribute of every element of that name that does
// not have it (XML 1.0 section 3.3.2): a robots class, an xml:base or a
// namespace declared so counts. At most 32 per element name apply (a tag of
// a few bytes must not cost a DOCTYPE's worth of work); the first
// declaration of an attribute binds.
//
// # Entities
//
// No DTD and no external entity is ever read. The scanner replaces the
// five predefined entities and character references. A general entity
// declared in the internal subset is included where it is referred to
// (XML 1.0 section 4.4.2): if its replacement text holds no markup (no
// '<', in it or in the entities it refers to), as text, the references in
// it replaced in turn; if it does, in content, as content: the scanner
// reads the tokens of the replacement text, from a stack of entities being
// read, and the driver handles them as the document's, so elements, robots
// classes, robots PIs, comment dialects, links, CDATA and references in it
// count as they would at the reference. The replacement text must be
// content on its own: an element that starts in it ends in it, and no tag
// or other token starts in it and ends outside, or the reverse. Such an
// entity referred to in an attribute value is not well-formed (WFC "No <
// in Attribute Values"). An entity that refers to itself, directly or not,
// is not well-formed. All the expansions of a document, as text or as
// content, share a budget of MaxEntityExpansion bytes of replacement text
// (at most MaxTokenSize): the reference that would pass it stops the
// document with ErrEntityExpansion, so that entities that refer to each
// other many times over ("billion laughs") cost bounded time and memory;
// the depth limit holds inside an expansion as outside. A reference to
// any other entity is not well-formed where XML 1.0's WFC "Entity
// Declared" applies: in a document without a DTD, with only an internal subset that holds no parameter
// entity reference, or with standalone="yes". Elsewhere an external subset
// or parameter entity, never read, may declare it: it is reported where it
// is first used and read as the HTML entity of that name if there is one,
// else kept as written; with an XHTML DOCTYPE the HTML entities are
// declared (by the XHTML DTD, which robofilter knows without reading) and
// not reported.
//
// Everything found in an expansion (warnings, regions, links, errors) is
// reported at the position of the reference in the document: the
// replacement text is in no file. In the archive copy, which is the
// input's bytes, the reference stays as written, unless archiving is off
// at the reference or anywhere in its expansion, or a no-archive region
// starts or ends in it: then the whole reference, the smallest piece of
// the input that holds the content, is replaced by the ellipsis. The
// DOCTYPE is copied as written, declarations included: an entity's
// replacement text stands there whatever the scopes it is used in.
//
// # Charsets and the archive copy
//
// The charset comes from a byte order mark, then Options.Charset, then the
// XML declaration (a well-formed one at the very start of the document:
// any other is an error), then UTF-8 (XML 1.0 Appendix F); a UTF-16 document
// without a BOM is recognised by its first characters. Labels are looked
// up as browsers do (WHATWG), then in the IANA registry (IBM855), then a
// few old names (MacCyrillic).
//
// The scanner reads UTF-8; the archive copy needs the original bytes, so
// the input reader (source.go) decodes in a way that keeps an exact map
// from decoded to original offsets. In every
// ASCII-compatible charset and in UTF-16, the markup delimiters '<' and '>'
// are single code units that no other character contains; the reader
// decodes each run between two delimiters on its own (a run cut short
// decodes to U+FFFD, as a decoder meeting the delimiter would) and copies
// the delimiters, recording where each one stands in both texts. Every
// token starts at a '<' or ends after a '>' (or at the end of the input),
// except where a reference to an entity with markup cuts a text token
// (the reference is a token of its own): the reader then finds the
// reference's '&' and ';' in the original by counting them, as neither is
// part of another character either (but a ';' in a multi-byte charset,
// which golang.org/x/text's GB18030 may read inside one: there the offset
// comes from the decoded text, measured in the charset, which is exact: a
// run that does not encode back to its own bytes, malformed sequences
// perhaps, is decoded again a character at a time, with the offsets of
// each that measures differently recorded). So each token's original bytes are
// known exactly: the archive copy of a document without no-archive markup
// is the input, byte for byte, whatever its charset, even with invalid
// sequences. UTF-8 input is not decoded at
// all. Stateful charsets (ISO-2022-JP) are decoded whole; their archive
// copy is re-encoded (the same bytes for well-formed input) and their
// positions count decoded bytes. Positions count original bytes, except
// lines and columns in UTF-16, which count the decoded text.
//
// # Errors and limits
//
// A document that is not well-formed stops the stage: everything before the
// failing token has been fed, and so has the character data of a text or
// CDATA token up to the error point in it (to the text, the archive copy
// and link text, in the scopes open there); then Run returns a
// *filter.PosError with the line and column (ErrNotWellFormed). The scanner checks what one token
// carries: names (XML 1.0 fifth edition), characters, references,
// quoting, white space between attributes, comments without "--", no
// "]]>" in text, a DOCTYPE's nested declarations, literals, comments and
// PIs, the PI target xml (reserved in any case: in lower case it is the
// XML declaration, which must come first, with nothing before it, not
// even white space, and say its version, then optionally its encoding and
// standalone, yes or no; a version 1.x is read as 1.0). The driver checks
// tag nesting, one root element, no text outside it, no repeated
// attribute and a DOCTYPE only before the root.
//
// The scanner stands where encoding/xml's RawToken stood: it draws the same
// token boundaries and, on every well-formed UTF-8 document of the corpus,
// gives the same tokens (scanner_test.go, and a fuzz target that compares
// the two). It checks what RawToken leaves out (the list above) and
// allocates nothing per token, which makes the whole stage about as fast
// as a bare RawToken loop.
//
// Memory is bounded by the depth limit (one frame per open element) and the
// token size limit: the input reader holds the current token and one read
// chunk, and never lets a token (a tag, comment, CDATA section or DOCTYPE)
// grow past MaxTokenSize bytes. A text node inside the root element is no
// token of its own size: past a piece (1 MiB, or half MaxTokenSize) it
// comes in pieces, each a text token appended to the one before, that end
// anywhere in UTF-8 and in a charset decoded whole, and after white space
// in a charset decoded by runs (where a long run without any still meets
// the limit). What an open element keeps of its
// attributes is bounded too: of a namespace declaration, only whether its
// URI is one the stage knows (and a prefix it redeclares shares the outer
// binding's text); resolved xml:base values are at most 2 KiB each and
// 4 MiB together. So is the time: resolving them goes through at most
// 32 MiB of URLs, plus 8 bytes per byte read; xml:base values past it are
// ignored with a warning. A longer token
// fails with filter.ErrTokenTooLong, deeper nesting with filter.ErrTooDeep, both with a
// position: the token's start, except for a text node, which is reported
// where the limit was reached.
package xmlstream
