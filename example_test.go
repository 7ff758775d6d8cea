package robofilter_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/robofilter/robofilter"
)

const page = `<html><head><title>Pets</title></head><body>
<p>Cats purr <span class="robots-noindex">loudly</span> at night.</p>
<p class="robots-nofollow">Ads: <a href="/ad">buy</a></p>
<p>Read <a href="/dogs.html">about dogs</a>. <img class="robots-noarchive" src="me.jpg"></p>
</body></html>`

// Filter collects every output of one pass in memory.
func ExampleFilter() {
	doc, err := robofilter.Filter(strings.NewReader(page), robofilter.Options{Base: "https://example.com/pets/"})
	if err != nil {
		panic(err)
	}
	fmt.Print(doc.Text)
	for _, l := range doc.Links {
		fmt.Println(l.URL, l.Followed, l.Reason, l.Text)
	}
	// Output:
	// Pets
	// Cats purr
	//
	// at night.
	// Ads: buy
	// Read about dogs.
	// https://example.com/ad false nofollow region buy
	// https://example.com/dogs.html true  about dogs
}

// Process streams: each output goes where it is wanted, from one pass,
// and the one import serves: options, outputs, links.
func ExampleProcess() {
	opts := robofilter.Options{Base: "https://example.com/pets/", Agent: "FooBot"}
	var archive strings.Builder
	out := robofilter.Outputs{
		Text:    robofilter.NewTextWriter(os.Stdout),
		Archive: &archive,
		Link: func(l robofilter.Link) error {
			if l.Followed {
				fmt.Println("follow:", l.URL)
			}
			return nil
		},
	}
	res, err := robofilter.Process(strings.NewReader(page), opts, out)
	if err != nil {
		panic(err)
	}
	fmt.Println("noindex:", res.Directives.NoIndex)
	fmt.Println(strings.Contains(archive.String(), `<img class="robots-noarchive" src="me.jpg">`))
	// Output:
	// follow: https://example.com/dogs.html
	// Pets
	// Cats purr
	//
	// at night.
	// Ads: buy
	// Read about dogs.
	// noindex: false
	// false
}

// Document-level rules can come from HTTP headers as well as from the page.
func ExampleOptions_xRobotsTag() {
	opts := robofilter.Options{Agent: "Googlebot/2.1", XRobotsTag: []string{"googlebot: nofollow", "otherbot: noindex"}}
	res, _ := robofilter.Process(strings.NewReader("<p>t</p>"), opts, robofilter.Outputs{Text: robofilter.NewTextWriter(os.Stdout)})
	fmt.Println("nofollow:", res.Directives.NoFollow, "noindex:", res.Directives.NoIndex)
	// Output:
	// t
	// nofollow: true noindex: false
}
