// Package htmlstream is robofilter's HTML stage: it reads an HTML document
// once, as a stream, and drives the format-neutral core (package filter)
// with the elements, text and comments the document is made of, so that
// the core can feed the indexable text, the archive-safe copy and the
// links from the same pass.
//
// # The streaming contract
//
// Run reads its io.Reader to the end exactly once, in reads of at most 32
// KiB, and feeds the core as it goes: nothing waits for the end of the
// document. Memory is bounded by the nesting depth (what is kept per open
// element: under a kilobyte, its scope and position) and by the
// longest tag, doctype or CDATA section (Options.MaxTokenSize), never by
// the document's size: text, raw text and comments that run on past a
// piece (1 MiB, or half MaxTokenSize) come in pieces (pieces.go), each
// appended to the one before. A token past MaxTokenSize or nesting past
// MaxDepth stops the run with a *filter.PosError that wraps
// filter.ErrTokenTooLong or filter.ErrTooDeep. Bad markup never fails:
// HTML has a parse for every byte sequence. The only other errors are the
// reader's, with everything read before them fed. The caller calls
// core.Finish afterwards in every case, which flushes the outputs.
//
// # Three layers
//
//   - The tokenizer (tokenizer.go) makes exactly the tokens
//     golang.org/x/net/html's Tokenizer makes of the input (its tests
//     replay x/net's as the oracle), but for the pieces of long text,
//     which join to x/net's tokens, scanning its window in place, and
//     hands over to x/net for the rare tokens cut short by the end of the
//     input or the size limit. Raw bytes partition the input: the archive
//     copy is made of them.
//   - The tree builder (tree.go, modes.go, insert.go, adoption.go) replays
//     the WHATWG tree-construction algorithm that html.Parse implements,
//     without building the tree: it keeps the stack of open elements, the
//     list of active formatting elements and the nodes they point at, and
//     nothing else. Each element it inserts is where html.Parse would put
//     it (implied end tags, foster parenting, the adoption agency, foreign
//     content, templates), so that the scope the core gives it (which
//     robots classes apply, whether it is hidden, its layout) is the one
//     its place in the DOM gives. The oracle tests compute the expected
//     outputs from html.Parse's DOM and compare them with the stream's,
//     on the corpus and the html5lib cases with robots classes injected.
//     html.Parse is never called outside tests.
//   - The driver (stream.go, tagparse.go) reads each tag's name and the
//     attributes robots care about (class, href, src, rel, data-nosnippet,
//     …) in one pass, decodes text of a non-UTF-8 charset, applies the
//     comment dialects (filter.Core.MarkerComment) and passes raw bytes to the archive
//     copy, many tokens at a time.
//
// # Charsets
//
// The charset comes from the byte order mark, Options.Charset, the
// Content-Type's charset, then the META prescan of the first KiB
// (golang.org/x/net/html/charset). An ASCII-compatible charset is not
// decoded in front of the tokenizer, so that the archive copy is the
// input's own bytes: markup is ASCII in all of them, and only text and
// attribute values are decoded, as they arrive. An unlabeled document is
// read as UTF-8, with windows-1252 for text that is not valid UTF-8.
// Charsets that are not ASCII-compatible (UTF-16, ISO-2022-JP) are decoded
// in front of the tokenizer one character at a time (rawinput.go), keeping
// the original bytes until the archive copy has passed them, so that the
// copy is the input's bytes there too.
//
// # Positions
//
// Every element, region, link and warning has the line, column and byte
// offset of its first byte in the input (filter.Pos); columns count bytes.
// In every charset these are the input's bytes: in UTF-16 and ISO-2022-JP,
// which the tokenizer reads decoded, rawInput maps its positions back (an
// escape sequence just before a token's first character is the token's,
// as in the archive copy).
package htmlstream
