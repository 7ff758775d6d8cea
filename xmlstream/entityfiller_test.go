package xmlstream

import (
	"bytes"
	"io"
)

// The oracle tests compare the scanner with encoding/xml, which fails on
// undeclared entities the XML stage reads: EntityFiller gives them the
// values the XML stage reads.

// maxEntityNames bounds the names EntityFiller's map learns; past it an
// unknown entity is left to the decoder, which reports it as an error.
const maxEntityNames = 4096

// EntityFiller passes a UTF-8 document through and, before a parser reads
// an entity reference other than the five predefined ones, adds the entity
// to m, when m has no value for it, with the value Run gives an undeclared
// entity where an external DTD subset may declare it (the HTML entity of
// that name, or the reference as written). A strict encoding/xml decoder
// whose Entity map is m then reads undeclared entities so instead of
// failing. EntityFiller reads no DTD: it does this in every document, also
// where Run reports an undeclared entity as not well-formed (no DTD, or
// standalone="yes"). m learns at most 4096 names.
func EntityFiller(r io.Reader, m map[string]string) io.Reader {
	return &entityFiller{r: r, m: m}
}

type entityFiller struct {
	r     io.Reader
	m     map[string]string
	buf   []byte
	start int // next byte to hand out
	hold  int // bytes scanned: buf[start:hold] may be handed out
	eof   bool
	err   error
	zero  int // reads in a row that returned nothing
}

func (f *entityFiller) Read(p []byte) (int, error) {
	for f.start >= f.hold {
		if f.err != nil {
			return 0, f.err
		}
		if f.eof {
			f.err = io.EOF
			continue
		}
		if f.start > 0 {
			n := copy(f.buf, f.buf[f.start:])
			f.buf, f.hold, f.start = f.buf[:n], f.hold-f.start, 0
		}
		if cap(f.buf)-len(f.buf) < 4096 {
			f.buf = append(make([]byte, 0, 2*cap(f.buf)+4096), f.buf...)
		}
		n, err := f.r.Read(f.buf[len(f.buf):cap(f.buf)])
		f.buf = f.buf[:len(f.buf)+n]
		switch {
		case err == io.EOF:
			f.eof = true
		case err != nil:
			f.err = err
		case n == 0:
			if f.zero++; f.zero > 100 {
				f.err = io.ErrNoProgress
			}
		default:
			f.zero = 0
		}
		f.hold, _ = scanEntityRefs(f.buf, f.hold, f.eof || f.err != nil, f.saw)
	}
	n := copy(p, f.buf[f.start:f.hold])
	f.start += n
	return n, nil
}

func (f *entityFiller) saw(name []byte) bool {
	if _, ok := predefinedEntity(string(name)); ok {
		return false
	}
	if _, ok := f.m[string(name)]; ok || len(f.m) >= maxEntityNames {
		return false
	}
	f.m[string(name)] = undeclaredEntityValue(string(name))
	return false
}

// scanEntityRefs calls saw with the name of every entity reference (not a
// character reference) in b[from:]. It returns len(b); or the offset of an
// '&' whose name may continue past the end of b (unless final); or, with
// stopped set, that of a reference saw asked to stop at.
func scanEntityRefs(b []byte, from int, final bool, saw func(name []byte) bool) (int, bool) {
	i := from
	for {
		j := bytes.IndexByte(b[i:], '&')
		if j < 0 {
			return len(b), false
		}
		i += j
		k := i + 1
		for k < len(b) && k-i <= maxEntityName && !endsRefName(b[k]) {
			k++
		}
		switch {
		case k < len(b) && b[k] == ';':
			if k > i+1 && b[i+1] != '#' && saw != nil && saw(b[i+1:k]) {
				return i, true
			}
			i = k + 1
		case k == len(b) && k-i <= maxEntityName && !final:
			return i, false
		default:
			i++ // not a reference: the decoder reports it
		}
	}
}
