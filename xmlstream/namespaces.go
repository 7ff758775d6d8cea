package xmlstream

import (
	"encoding/xml"
	"strings"
)

// Namespace bindings (Namespaces in XML 1.0): prefixes bound and unbound
// as elements open and close.

// splitQName splits a qualified name at its first colon, as encoding/xml
// does; a name with a colon at either end is all local.
func splitQName(s string) (prefix, local string) {
	i := strings.IndexByte(s, ':')
	if i < 1 || i > len(s)-2 {
		return "", s
	}
	return s[:i], s[i+1:]
}

// bind declares a namespace prefix ("": the default namespace) until
// unbind drops it. Both strings may borrow the scanner's buffer. What the
// binding keeps does not grow with the declaration: the namespace as
// boundNamespace gives it, and the prefix's text shared with the binding
// it hides, if any (a deep nesting that declares a long URI, or a long
// prefix, on every level held a copy per level).
func (d *driver) bind(prefix, uri string) {
	prev, ok := d.nsTop[prefix]
	if ok {
		prefix = d.ns[prev].prefix
	} else {
		prev, prefix = -1, strings.Clone(prefix)
	}
	if d.nsTop == nil {
		d.nsTop = map[string]int{}
	}
	d.nsTop[prefix] = len(d.ns)
	d.ns = append(d.ns, nsBinding{prefix: prefix, uri: boundNamespace(uri), prev: prev})
}

// unbind drops the bindings from ns[mark] on (an element's, at its end),
// innermost first, so that those they hid are in scope again.
func (d *driver) unbind(mark int) {
	for i := len(d.ns) - 1; i >= mark; i-- {
		if b := d.ns[i]; b.prev < 0 {
			delete(d.nsTop, b.prefix)
		} else {
			d.nsTop[b.prefix] = b.prev
		}
	}
	d.ns = d.ns[:mark]
}

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// resolve maps a prefix to its namespace. An element without a prefix is in
// the default namespace; an attribute without one is in none.
func (d *driver) resolve(prefix string, element bool) string {
	if prefix == "" && !element {
		return ""
	}
	if prefix == "xml" {
		return nsXML
	}
	if len(d.ns) > nsScan {
		if i, ok := d.nsTop[prefix]; ok {
			return d.ns[i].uri
		}
	} else {
		for i := len(d.ns) - 1; i >= 0; i-- {
			if d.ns[i].prefix == prefix {
				return d.ns[i].uri
			}
		}
	}
	if key := warnedKey(prefix); prefix != "" && !d.unboundNS[key] && len(d.unboundNS) < 100 {
		if d.unboundNS == nil {
			d.unboundNS = map[string]bool{}
		}
		d.unboundNS[strings.Clone(key)] = true
		d.core.Warn(d.pos, "namespace prefix %q is not declared; names with it are in no namespace", clipRunes(prefix, 80))
	}
	return ""
}
