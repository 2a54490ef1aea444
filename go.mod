module c4solve

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/dgryski/go-farm v0.0.0-20240924180020-3414d57e47da
	github.com/schollz/progressbar/v3 v3.19.1
	golang.org/x/sync v0.24.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
