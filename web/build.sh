#!/bin/sh
# Builds what c4solve.mjs loads beside it into DIR (this folder by
# default): the engine for WebAssembly (c4solve.wasm, from this folder's Go
# program, with the profile of the command's build and the instructions
# every browser of 2021 and later has) and Go's wasm_exec.js, the one of
# the Go that built it. c4solve site builds with it. Run from anywhere;
# needs Go.
#
# Usage: web/build.sh [DIR]
set -eu
out=${1:-$(dirname "$0")}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
GOOS=js GOARCH=wasm GOWASM=satconv,signext go build -trimpath -pgo=cmd/c4solve/default.pgo -o "$out/c4solve.wasm" ./web
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/wasm_exec.js"
