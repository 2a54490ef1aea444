module c4solve

go 1.26.0

require (
	github.com/dgryski/go-farm v0.0.0-20240924180020-3414d57e47da
	github.com/schollz/progressbar/v3 v3.19.1
	golang.org/x/sync v0.24.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
)

require (
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
)
