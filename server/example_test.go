package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"c4solve/board"
	"c4solve/book"
	"c4solve/server"
	"c4solve/solver"
)

// A client of the public service, pointed at a local Server.
func Example() {
	bk, err := book.Default()
	if err != nil {
		panic(err)
	}
	srv, err := server.New(server.Config{TableMiB: 16, Books: map[board.Size]solver.Book{board.Standard: bk}, Full: server.DefaultFull})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, pos := range []string{"4453", "444444", "448"} {
		resp, err := http.Get(ts.URL + "/solve?pos=" + pos)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Print(resp.StatusCode, " ", string(body))
	}
	// Output:
	// 200 {"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}
	// 200 {"pos":"444444","score":[-1,0,1,100,1,0,-1]}
	// 400 {"error":"pos \"448\": position 3: '8' is not a column 1-7"}
}
