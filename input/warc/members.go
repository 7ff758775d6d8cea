package warc

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/klauspost/compress/gzip"
)

// members decompresses a WARC file's gzip members one at a time
// (Multistream off), so that where each starts in the file is known: a
// record's offset in a .warc.gz is its member's, as CDX indexes give it. It
// decompresses from one member into the next when the next follows
// directly (a record may span members); when the bytes after a member are
// not another member, or a member is corrupt or cut short, it stops, with
// the reason, until the Reader, which knows where records end, opens the
// next member.
type members struct {
	rd     *Reader
	zr     gzip.Reader
	active bool  // a member is being decompressed
	start  int64 // the current member's offset in the file
	out    int64 // decompressed bytes given out, all members
	// starts lists where members start in the decompressed bytes: the
	// last that starts at or before the oldest byte a reader may still
	// have buffered, and those after it.
	starts []memberStart
	// stop is why decompression stopped while not active: io.EOF (the file
	// ended after a member), *notGzipError, *memberError.
	stop error
}

type memberStart struct{ out, file int64 }

// notGzipError stops decompression where the bytes after a member are not
// another member: the Reader reads what is there (a record not compressed,
// garbage, zero padding).
type notGzipError struct{ at int64 }

func (e *notGzipError) Error() string {
	return fmt.Sprintf("the gzip member ends at byte %d of the file and what follows is no gzip member", e.at)
}

// memberError is a gzip member that is corrupt, or cut short by the file's
// end (atEOF).
type memberError struct {
	member, at int64 // the member's offset in the file, where it failed
	atEOF      bool
	err        error
}

func (e *memberError) Error() string {
	if e.atEOF {
		return fmt.Sprintf("the gzip member at byte %d of the file is cut short by the file's end (byte %d)", e.member, e.at)
	}
	return fmt.Sprintf("the gzip member at byte %d of the file is corrupt (found at byte %d of the file): %v", e.member, e.at, e.err)
}

// isGzipStart reports whether b (at least 10 bytes, or all that is left)
// starts with a plausible gzip member header: ID1 ID2, deflate, no
// reserved flag set.
func isGzipStart(b []byte) bool {
	return len(b) >= 10 && b[0] == 0x1F && b[1] == 0x8B && b[2] == 8 && b[3]&0xE0 == 0
}

// open starts decompressing the member at the file's current place (the
// caller saw its header with isGzipStart). A header that still proves bad
// (its optional fields) stops decompression with a memberError.
func (m *members) open() {
	m.start = m.rd.filePos()
	err := m.zr.Reset(m.rd.raw)
	if err == nil {
		m.zr.Multistream(false)
		m.active, m.stop = true, nil
		m.addStart()
		return
	}
	m.fail(err)
}

// addStart notes that a member starts at m.out, dropping what no buffered
// byte can need: a bufio.Reader over members holds at most dec.Size()
// bytes it has not given out.
func (m *members) addStart() {
	keep := m.out - int64(m.rd.dec.Size())
	i := 0
	for i+1 < len(m.starts) && m.starts[i+1].out <= keep {
		i++
	}
	m.starts = append(m.starts[:0], m.starts[i:]...)
	if n := len(m.starts); n > 0 && m.starts[n-1].out == m.out {
		m.starts = m.starts[:n-1] // an empty member: the byte is the next one's
	}
	m.starts = append(m.starts, memberStart{m.out, m.start})
}

// startAfter is where the first member starting after the decompressed
// offset out starts (-1: none known).
func (m *members) startAfter(out int64) int64 {
	i := sort.Search(len(m.starts), func(i int) bool { return m.starts[i].out > out })
	if i == len(m.starts) {
		return -1
	}
	return m.starts[i].out
}

// position is where the decompressed offset out is.
func (m *members) position(out int64) Position {
	p := Position{Compressed: true, Offset: m.start}
	if i := sort.Search(len(m.starts), func(i int) bool { return m.starts[i].out > out }); i > 0 {
		s := m.starts[i-1]
		p.Offset, p.InMember = s.file, out-s.out
	}
	return p
}

func (m *members) fail(err error) {
	m.active = false
	if m.rd.file.err != nil {
		m.stop = m.rd.file.err // reading the file failed: not the member's fault
		return
	}
	at := m.rd.filePos()
	_, peekErr := m.rd.raw.Peek(1)
	m.stop = &memberError{member: m.start, at: at, atEOF: peekErr == io.EOF && (err == io.ErrUnexpectedEOF || err == io.EOF), err: err}
}

// next follows a member that ended: the next member if one follows
// directly, else a stop.
func (m *members) next() {
	m.active = false
	b, err := m.rd.raw.Peek(10)
	switch {
	case len(b) == 0 && err == io.EOF:
		m.stop = io.EOF
	case len(b) == 0:
		m.stop = err
	case isGzipStart(b):
		m.open()
	default:
		m.stop = &notGzipError{at: m.rd.filePos()}
	}
}

func (m *members) Read(p []byte) (int, error) {
	for {
		if !m.active {
			return 0, m.stop
		}
		n, err := m.zr.Read(p)
		m.out += int64(n)
		m.rd.work += int64(n)
		switch {
		case err == nil:
			return n, nil
		case err == io.EOF:
			m.next()
		case errors.Is(err, gzip.ErrChecksum) && m.rd.file.err == nil:
			// The member's data is all there; its CRC-32 or length says
			// it is not what was compressed. Kept, and said.
			m.rd.warn(Position{Offset: m.start, Compressed: true}, "the gzip member's CRC-32 or length does not match its data (kept as it is)")
			m.next()
		default:
			m.fail(err)
		}
		if n > 0 {
			return n, nil
		}
	}
}

// stopEndsFile reports whether a stop (or a read error) means that nothing
// more can be read: the file ended, or reading it failed.
func (rd *Reader) stopEndsFile(err error) bool {
	var me *memberError
	switch {
	case err == io.EOF, rd.file.err != nil:
		return true
	case errors.As(err, &me):
		return me.atEOF
	}
	var ng *notGzipError
	return !errors.As(err, &ng)
}
