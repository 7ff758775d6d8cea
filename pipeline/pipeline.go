// Package pipeline runs a stream of work over several goroutines and
// hands the results back in the order the work came: how the CLI spreads
// documents over every core, across files and across the records of one
// WARC file, with output identical to processing them one by one.
//
// Run takes three functions. next gives the units of work in order, on
// the calling goroutine (for documents: reading a source out of its
// container, which is sequential). work runs on one of the workers (for
// documents: opening and processing one, into buffers). deliver gets each
// result, in the order next gave the units, on one goroutine (for
// documents: writing the buffers out). A unit next marks inTurn is worked
// on by the calling goroutine before next is called again (a document
// too large to read out of its container first, processed as it streams).
//
// Memory is bounded: at most workers units are being worked on, and at
// most Ahead×workers units (worked on, or done and waiting) are between
// next and deliver.
package pipeline

import (
	"io"
	"sync"
	"sync/atomic"
)

// Ahead is how many units per worker may be between next and deliver:
// results wait in the order the units came, so a unit that takes long
// holds back the delivery of those after it, and with a unit or two per
// worker the other workers then wait for next. On a crawl's pages (a few
// KB to 1 MiB each), two workers on two cores made text 1.2 times as fast
// with 4 as with 1.
const Ahead = 4

// Run runs every unit next gives through work on workers goroutines (at
// least one) and delivers the results in order. It returns when next
// returns io.EOF and every result was delivered, or at the first error of
// next (other than io.EOF) or deliver, after delivering what came before
// it (after deliver fails, nothing more is delivered, and next is not
// called again).
func Run[T, R any](workers int, next func() (unit T, inTurn bool, err error), work func(T) R, deliver func(R) error) error {
	workers = max(workers, 1)
	type job struct {
		unit T
		slot chan R
	}
	jobs := make(chan job)
	// order holds each unit's slot, in the order the units came; its
	// capacity bounds the units between next and deliver.
	order := make(chan chan R, Ahead*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				j.slot <- work(j.unit)
			}
		}()
	}
	var failed atomic.Bool
	delivered := make(chan error, 1)
	go func() {
		var err error
		for slot := range order {
			r := <-slot
			if err == nil {
				if err = deliver(r); err != nil {
					failed.Store(true)
				}
			}
		}
		delivered <- err
	}()
	var nextErr error
	for !failed.Load() {
		unit, inTurn, err := next()
		if err != nil {
			if err != io.EOF {
				nextErr = err
			}
			break
		}
		slot := make(chan R, 1)
		order <- slot
		if inTurn {
			slot <- work(unit)
		} else {
			jobs <- job{unit, slot}
		}
	}
	close(jobs)
	wg.Wait()
	close(order)
	if err := <-delivered; err != nil {
		return err
	}
	return nextErr
}
