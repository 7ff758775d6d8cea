package robotstxt

import (
	"bytes"
	"slices"
)

// The rules of a rule set are indexed by a radix tree over the literal heads
// of their patterns: the bytes before a pattern's first "*". Walking a path
// down the tree visits exactly the heads that are prefixes of the path, so a
// lookup costs one pass over the path whatever the number of rules, and a
// wildcard rule is only tried where its head already matched.
//
// Nodes live in one slice and refer to each other by index, and child and
// wildcard lists are ranges of shared slices: building a tree of thousands
// of rules takes a handful of allocations and gives the garbage collector
// almost no pointers to follow.

// trieNode is a node of the tree; see ruleSet for the slices it indexes.
type trieNode struct {
	label              []byte // bytes from the parent to here; siblings differ in label[0]
	firstChild         int32  // children: childBytes and childNodes [firstChild, firstChild+numChildren)
	numChildren        int32
	prefix             int32 // best literal rule whose whole pattern ends here, or -1
	exact              int32 // best "$"-anchored literal rule ending here, or -1
	wildStart, wildEnd int32 // wildcard rules whose head ends here, best first: wildRules[wildStart:wildEnd]
}

// child returns the index of the child of n whose label starts with c, or -1.
func (s *ruleSet) child(n *trieNode, c byte) int32 {
	first := int(n.firstChild)
	k := bytes.IndexByte(s.childBytes[first:first+int(n.numChildren)], c)
	if k < 0 {
		return -1
	}
	return s.childNodes[first+k]
}

// headRef is a rule's head, bytes [start, end) of the builder's copy of all
// heads, beside the rule's index. It is small because the sort moves it.
type headRef struct {
	start, end, rule int32
}

// trieBuilder holds what building needs beside the rule set.
type trieBuilder struct {
	s       *ruleSet
	text    []byte    // every head, one after the other; labels are slices of it
	scratch []headRef // as long as the heads, for sorting
}

func (b *trieBuilder) head(h headRef) []byte { return b.text[h.start:h.end:h.end] }

func (b *trieBuilder) at(h headRef, depth int) byte { return b.text[int(h.start)+depth] }

func (h headRef) len() int { return int(h.end - h.start) }

// buildTrie indexes every rule of s under its head.
func (s *ruleSet) buildTrie() {
	size := 0
	for i := range s.rules {
		size += len(s.rules[i].pat.head)
	}
	b := &trieBuilder{s: s, text: make([]byte, 0, size), scratch: make([]headRef, len(s.rules))}
	heads := make([]headRef, len(s.rules))
	for i := range s.rules {
		start := len(b.text)
		b.text = append(b.text, s.rules[i].pat.head...)
		heads[i] = headRef{int32(start), int32(len(b.text)), int32(i)}
	}
	// A radix tree over n heads has at most 2n+1 nodes (the root, the ends
	// of heads, and forks of two or more children, fewer than the ends);
	// real rule sets need a little more than n. The slices grow if needed:
	// nodes refer to each other by index.
	n := len(s.rules) + len(s.rules)/4 + 1
	s.nodes = make([]trieNode, 1, n)
	s.nodes[0] = trieNode{prefix: -1, exact: -1}
	s.childBytes = make([]byte, 0, n)
	s.childNodes = make([]int32, 0, n)
	s.wildRules = make([]int32, 0, len(s.rules)/4)
	b.build(0, heads, 0)
}

// build fills node, whose path is depth bytes long, from the heads that
// start with that path. It sorts heads in place by their bytes at depth (a
// most-significant-byte radix sort, one byte per level).
func (b *trieBuilder) build(node int32, heads []headRef, depth int) {
	s := b.s
	// Heads that end here go first.
	end := 0
	for i, h := range heads {
		if h.len() == depth {
			heads[end], heads[i] = heads[i], heads[end]
			end++
		}
	}
	s.attach(node, heads[:end])
	rest := heads[end:]
	if len(rest) == 0 {
		return
	}
	b.sortByByte(rest, depth)
	runs := 0
	for i := 0; i < len(rest); runs++ {
		i = b.runEnd(rest, i, depth)
	}
	// Reserve the child lists before recursing, so they stay contiguous.
	first := len(s.childBytes)
	s.childBytes = slices.Grow(s.childBytes, runs)[:first+runs]
	s.childNodes = slices.Grow(s.childNodes, runs)[:first+runs]
	s.nodes[node].firstChild, s.nodes[node].numChildren = int32(first), int32(runs)
	for k, i := 0, 0; i < len(rest); k++ {
		j := b.runEnd(rest, i, depth)
		run := rest[i:j]
		head := b.head(run[0])
		lcp := len(head)
		for _, h := range run[1:] {
			other := b.head(h)
			l := depth + 1
			for l < lcp && l < len(other) && other[l] == head[l] {
				l++
			}
			lcp = l
		}
		child := int32(len(s.nodes))
		s.nodes = append(s.nodes, trieNode{label: head[depth:lcp:lcp], prefix: -1, exact: -1})
		s.childBytes[first+k] = head[depth]
		s.childNodes[first+k] = child
		b.build(child, run, lcp)
		i = j
	}
}

// sortByByte orders heads by their byte at depth: a counting sort for many
// heads, an insertion sort for few.
func (b *trieBuilder) sortByByte(heads []headRef, depth int) {
	if len(heads) <= 32 {
		for i := 1; i < len(heads); i++ {
			for j := i; j > 0 && b.at(heads[j], depth) < b.at(heads[j-1], depth); j-- {
				heads[j], heads[j-1] = heads[j-1], heads[j]
			}
		}
		return
	}
	var count [257]int
	for _, h := range heads {
		count[int(b.at(h, depth))+1]++
	}
	for c := 1; c < len(count); c++ {
		count[c] += count[c-1]
	}
	scratch := b.scratch[:len(heads)]
	for _, h := range heads {
		c := b.at(h, depth)
		scratch[count[c]] = h
		count[c]++
	}
	copy(heads, scratch)
}

// runEnd returns the end of the run of heads from i sharing the byte at depth.
func (b *trieBuilder) runEnd(heads []headRef, i, depth int) int {
	c := b.at(heads[i], depth)
	j := i + 1
	for j < len(heads) && b.at(heads[j], depth) == c {
		j++
	}
	return j
}

// attach files the rules whose head ends at node.
func (s *ruleSet) attach(node int32, heads []headRef) {
	n := &s.nodes[node]
	start := len(s.wildRules)
	for _, h := range heads {
		switch p := &s.rules[h.rule].pat; {
		case p.star:
			// Keep the list best first: it is short, insert in place.
			s.wildRules = append(s.wildRules, h.rule)
			for k := len(s.wildRules) - 1; k > start && s.better(s.wildRules[k], s.wildRules[k-1]); k-- {
				s.wildRules[k], s.wildRules[k-1] = s.wildRules[k-1], s.wildRules[k]
			}
		case p.anchored:
			if s.better(h.rule, n.exact) {
				n.exact = h.rule
			}
		default:
			if s.better(h.rule, n.prefix) {
				n.prefix = h.rule
			}
		}
	}
	n.wildStart, n.wildEnd = int32(start), int32(len(s.wildRules))
}
