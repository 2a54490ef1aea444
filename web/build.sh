#!/bin/sh
# Builds what c4solve.mjs loads beside it: the engine for WebAssembly
# (c4solve.wasm, from this folder's Go program, with the profile of the
# command's build and the instructions every browser of 2021 and later
# has, as c4solve site builds it) and Go's wasm_exec.js, the one of the Go
# that built it. Run from anywhere; needs Go.
set -eu
cd "$(dirname "$0")/.."
GOOS=js GOARCH=wasm GOWASM=satconv,signext go build -trimpath -pgo=cmd/c4solve/default.pgo -o web/c4solve.wasm ./web
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" web/wasm_exec.js
