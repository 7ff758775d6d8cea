module github.com/robofilter/robofilter/bench/robotstxt

go 1.26.8

require (
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/robofilter/robofilter v0.0.0
	github.com/temoto/robotstxt v1.1.2
)

replace github.com/robofilter/robofilter => ../..
