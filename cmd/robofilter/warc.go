package main

import (
	"io"
	"net/http"
	"strconv"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/warc"
	"github.com/robofilter/robofilter/weburl"
)

// warcDocuments processes every response and resource record of a WARC
// file (--warc) that holds a page (HTML or XML by its media type, or none
// given) as a document named NAME#N (N: the record's number in the
// file, from 1), with its links resolved against its WARC-Target-URI
// (--base for a record without a usable one). Other records (request,
// warcinfo, metadata, revisit …) are skipped. A record that cannot be read
// ends the file, reported: nothing tells where the next would start. It
// reports false when any document or the file failed.
func (rc *runConfig) warcDocuments(name string, r io.Reader, fn documentFunc) (bool, error) {
	wr, err := warc.NewReader(r)
	if err != nil {
		return false, rc.unprocessed(name, err)
	}
	ok := true
	for n := 1; ; n++ {
		rec, err := wr.Next()
		if err == io.EOF {
			return ok, nil
		}
		if err != nil {
			return false, rc.unprocessed(name, err)
		}
		isHTTP := rec.IsHTTPResponse()
		if !isHTTP && (rec.Type() != "resource" || !isPage(rec.Header.Get("Content-Type"))) {
			continue // a resource that is no page (an image, a crawler's log) is no document either
		}
		opts := rc.flagOpts
		uri := rec.TargetURI()
		if _, err := weburl.ParseBase(uri); uri != "" && err == nil {
			opts.Base = uri
		}
		body := rec.Block
		if !isHTTP {
			// A resource record's block is the document itself, its
			// media type the record's Content-Type; with no coding to
			// undo, FromResponse has no error to give.
			resp := &http.Response{Header: http.Header{"Content-Type": {rec.Header.Get("Content-Type")}}, Body: io.NopCloser(body)}
			body, opts, _ = robofilter.FromResponse(resp, opts)
		}
		rc.docURI, rc.docTruncated = uri, rec.Header.Get("WARC-Truncated")
		docOK, werr := rc.document(docName(name, n), body, opts, isHTTP, fn)
		rc.docURI, rc.docTruncated = "", ""
		if werr != nil {
			return false, werr
		}
		ok = ok && docOK
	}
}

// docName names the n-th record of a WARC file.
func docName(file string, n int) string { return file + "#" + strconv.Itoa(n) }
