#!/usr/bin/env bash
# Verifies c4solve on Steininger's test positions of other board sizes, read from a clone of
# his repository (AGPL-3.0: this repository does not carry them), as c4solve verify -size WxH
# -from0 (his files number columns from 0).
#
# Usage: compare/verify_sizes.sh STEININGER_CLONE [SIZE [LINES]]
#
#   STEININGER_CLONE  a clone of github.com/ChristopheSteininger/c4 (its tst/data/WxH/*.txt)
#   SIZE              9x5 (default); 10x6 needs 70 bits and is refused
#   LINES             only the first LINES lines of each file (default: all)
#
# Extra arguments to c4solve verify can be given in C4_VERIFY_FLAGS (e.g. "-tt 1024").
# Exit status: c4solve verify's, the worst over the files (0 all agree, 1 a mismatch).
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 3 ] || { sed -n 6,10p "$0" >&2; exit 2; }
clone=$1 size=${2:-9x5} lines=${3:-0}
dir=$clone/tst/data/$size
[ -d "$dir" ] || { echo "verify_sizes.sh: no $dir" >&2; exit 2; }
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/c4solve" ./cmd/c4solve
worst=0
for f in "$dir"/*.txt; do
	name=$(basename "$f")
	if [ "$lines" -gt 0 ]; then
		head -n "$lines" "$f" > "$bin/$name"
		f=$bin/$name
	fi
	# shellcheck disable=SC2086
	"$bin/c4solve" verify -size "$size" -from0 ${C4_VERIFY_FLAGS:-} "$f" || worst=$(( $? > worst ? $? : worst ))
done
exit "$worst"
