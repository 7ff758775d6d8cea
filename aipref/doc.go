// Package aipref reads the ways authors state what their content may be
// used for by AI systems, and decides, for a purpose, whether a document
// may be used:
//
//   - the IETF AI Preferences vocabulary, draft-ietf-aipref-vocab-08: the
//     usage categories train-ai, ai-use and search, and statements of
//     preference in its exemplary format, a Structured Fields Dictionary
//     ("train-ai=n, search=y"), as the Content-Usage HTTP header field and
//     robots.txt rule of draft-ietf-aipref-attach-05 carry them
//     ([ParseUsage]; the robots.txt rule is read by package robotstxt);
//   - Cloudflare's Content Signals (search, ai-input, ai-train, with yes or
//     no), named in draft-romm-aipref-contentsignals-00 ([ParseContentSignal]);
//   - the W3C TDM Reservation Protocol (final community group report of 10
//     May 2024): tdm-reservation and tdm-policy as HTTP headers, HTML META
//     and in /.well-known/tdmrep.json ([ParseTDMReservation], [ParseTDMRep]);
//   - the noai and noimageai robots directives, which package filter reads
//     ([NoAI]).
//
// Each is mapped onto the vocabulary's categories ([Prefs]); statements
// are combined as the drafts say ([Set]): within a mechanism the most
// specific statement wins where its specification says so (TDMRep's META
// over its header over its file; robots.txt's longest path), and between
// mechanisms, or statements of equal standing, "disallowed" wins
// (draft-ietf-aipref-vocab-08 section 5.1). A [Purpose] names the use a
// caller has in mind and [Purpose.Decide] says whether the preferences
// allow it. docs/aipref.md says what each mapping and choice is, and why.
package aipref
