package warc

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// Zstandard WARC files (.warc.zst), as the IIPC's convention writes them:
// each record a zstd frame of its own, and, first in the file, a skippable
// frame (magic 0x184D2A5D) that holds the dictionary the frames were
// compressed with, itself zstd-compressed or not. The file is read as one
// stream of decompressed bytes: positions count them (Position.Zstd), and
// a frame that does not decode ends the file with an error (a gzip file
// can be read on from its next member; a zstd stream has no such
// boundary the reader can find again).

const (
	zstdFrameMagic     = 0xFD2FB528
	zstdSkippableMagic = 0x184D2A5D // the convention's dictionary frame
	zstdDictMagic      = 0xEC30A437
	// maxZstdDict bounds the dictionary the file gives (zstd's tools make
	// them of 110 KB by default; the convention's are of that order).
	maxZstdDict = 16 << 20
	// MaxZstdWindow bounds the window a zstd-compressed WARC file may
	// ask for: what the decoder holds. Level 19 asks for 8 MiB; long mode
	// for up to 128 MiB, which is refused.
	MaxZstdWindow = 64 << 20
)

// zstdFile reports whether br starts a zstd-compressed file and, if so,
// gives the reader of its decompressed bytes, its dictionary read.
func zstdFile(br *bufio.Reader) (io.Reader, bool, error) {
	head, err := br.Peek(4)
	if err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, false, nil
		}
		return nil, false, err
	}
	var dict []byte
	switch binary.LittleEndian.Uint32(head) {
	case zstdFrameMagic:
	case zstdSkippableMagic:
		if dict, err = zstdDictionary(br); err != nil {
			return nil, false, err
		}
	default:
		return nil, false, nil
	}
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(MaxZstdWindow)}
	if dict != nil {
		opts = append(opts, zstd.WithDecoderDicts(dict))
	}
	zr, err := zstd.NewReader(br, opts...)
	if err != nil {
		return nil, false, fmt.Errorf("the zstd-compressed file: %w", err)
	}
	return zstdErrors{zr}, true, nil
}

// zstdDictionary reads the skippable frame at the start of br and gives
// the dictionary it holds (decompressed when it is zstd-compressed).
func zstdDictionary(br *bufio.Reader) ([]byte, error) {
	var head [8]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return nil, fmt.Errorf("the zstd dictionary frame at byte 0 of the file is cut short: %w", io.ErrUnexpectedEOF)
	}
	size := binary.LittleEndian.Uint32(head[4:])
	if size > maxZstdDict {
		return nil, fmt.Errorf("the zstd dictionary frame at byte 0 of the file holds %d bytes, over the %d a dictionary may have", size, maxZstdDict)
	}
	frame := make([]byte, size)
	if _, err := io.ReadFull(br, frame); err != nil {
		return nil, fmt.Errorf("the zstd dictionary frame at byte 0 of the file is cut short: %w", io.ErrUnexpectedEOF)
	}
	if len(frame) >= 4 && binary.LittleEndian.Uint32(frame) == zstdFrameMagic {
		dec, err := zstd.NewReader(bytes.NewReader(frame), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxZstdDict))
		if err != nil {
			return nil, err
		}
		defer dec.Close()
		if frame, err = io.ReadAll(dec); err != nil {
			return nil, fmt.Errorf("the zstd dictionary at byte 8 of the file: %w", err)
		}
	}
	if len(frame) < 8 || binary.LittleEndian.Uint32(frame) != zstdDictMagic {
		return nil, errors.New("the skippable frame at byte 0 of the file holds no zstd dictionary")
	}
	return frame, nil
}

// zstdErrors says which decompression an error of the zstd decoder is
// about.
type zstdErrors struct{ r io.Reader }

func (z zstdErrors) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("decompressing the zstd-compressed file: %w", err)
	}
	return n, err
}
