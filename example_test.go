package robofilter_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/robofilter/robofilter"
	"github.com/robofilter/robofilter/filter"
	"github.com/robofilter/robofilter/phrase"
)

const page = `<html><head><title>Pets</title></head><body>
<p>Cats purr <span class="robots-noindex">loudly</span> at night.</p>
<p class="robots-nofollow">Ads: <a href="/ad">buy</a></p>
<p>Read <a href="/dogs.html">about dogs</a>. <img class="robots-noarchive" src="me.jpg"></p>
</body></html>`

// Filter collects every output of one pass in memory.
func ExampleFilter() {
	opts := robofilter.Options{}
	opts.Base = "https://example.com/pets/"
	doc, err := robofilter.Filter(strings.NewReader(page), opts)
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

// Process streams: each output goes where it is wanted, from one pass.
func ExampleProcess() {
	var archive strings.Builder
	out := robofilter.Outputs{
		Archive: &archive,
		Link: func(l filter.Link) error {
			if l.Followed {
				fmt.Println("follow:", l.URL)
			}
			return nil
		},
	}
	_, err := robofilter.Process(strings.NewReader(`<p>a <img class="robots-noarchive" src="x.png"> <a href="/b">b</a></p>`), robofilter.Options{}, out)
	if err != nil {
		panic(err)
	}
	fmt.Println(archive.String())
	// Output:
	// follow: /b
	// <p>a … <a href="/b">b</a></p>
}

// Document-level rules can come from HTTP headers as well as from the page.
func ExampleOptions_xRobotsTag() {
	opts := robofilter.Options{}
	opts.Agent = "Googlebot/2.1"
	opts.XRobotsTag = []string{"googlebot: nofollow", "otherbot: noindex"}
	res, _ := robofilter.Process(strings.NewReader("<p>t</p>"), opts, robofilter.Outputs{Text: phrase.NewWriter(os.Stdout)})
	fmt.Println("nofollow:", res.Directives.NoFollow, "noindex:", res.Directives.NoIndex)
	// Output:
	// t
	// nofollow: true noindex: false
}
