// Package httpresp reads HTTP responses as tools save them: curl -si
// (HTTP/1.x, and HTTP/2 and HTTP/3 status lines as curl writes them),
// curl -siL (interim responses and redirects before the one that counts),
// curl --compressed (a body saved decoded under its Content-Encoding), and
// the block of a WARC response record. ReadSaved reads the head, skipping
// malformed header lines with a warning as browsers and warcio skip them,
// and undoes the body's framing as the saved bytes allow; Decode undoes
// its content codings (gzip, deflate, br, zstd).
//
// The input bounds the response: a body longer than its Content-Length is
// read to the input's end, with a warning, as warcio and pywb read a WARC
// record. A head is held whole, at most MaxHead bytes.
package httpresp
