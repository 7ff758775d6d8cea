package robofilter_test

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/robofilter/robofilter"
)

// A response's X-Robots-Tag and charset apply to its body.
func ExampleProcessResponse() {
	raw := "HTTP/1.1 200 OK\r\n" +
		"Content-Type: text/html; charset=windows-1252\r\n" +
		"X-Robots-Tag: nofollow\r\n" +
		"Content-Length: 39\r\n\r\n" +
		"<p>Caf\xe9 cr\xe8me</p><a href=/menu>menu</a>"
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(raw)), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var links []string
	res, err := robofilter.ProcessResponse(resp, robofilter.Options{}, robofilter.Outputs{
		Text: robofilter.NewTextWriter(os.Stdout),
		Link: func(l robofilter.Link) error {
			links = append(links, fmt.Sprintf("%s followed=%v (%s)", l.URL, l.Followed, l.Reason))
			return nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Charset, links)
	// Output:
	// Café crème
	// menu
	// windows-1252 [/menu followed=false (document nofollow)]
}
