#!/usr/bin/env bash
# Checks the scores of a file of "moves score" lines (a published set, or a sample of a book
# from "c4solve book sample") with a reference solver built by compare/build.sh, and prints
# each line whose score differs, then the number checked and the number that differed.
#
# Usage: compare/check_scores.sh SOLVER FILE
#
#   SOLVER   OUTDIR/stein-t1-m64 (Steininger's) or OUTDIR/pons (Pons'), from compare/build.sh
#
# Exit status: 0 all agree, 1 some differ, 2 bad usage or a solver that failed.
set -euo pipefail
[ $# = 2 ] || { sed -n 6,9p "$0" >&2; exit 2; }
solver=$1 file=$2
[ -x "$solver" ] || { echo "check_scores.sh: $solver is not an executable" >&2; exit 2; }
[ -r "$file" ] || { echo "check_scores.sh: cannot read $file" >&2; exit 2; }
got=$(mktemp)
trap 'rm -f "$got"' EXIT
"$solver" < "$file" > "$got"
# The drivers answer each line, in order, with "moves score nodes expanded microseconds".
awk 'NR == FNR { moves[FNR] = $1; want[FNR] = $2; n = FNR; next }
	{ m[FNR] = $1; s[FNR] = $2; got = FNR }
	END {
		if (got != n) { printf "check_scores.sh: %d lines, %d answers\n", n, got > "/dev/stderr"; exit 2 }
		for (i = 1; i <= n; i++) {
			if (m[i] != moves[i]) { printf "check_scores.sh: line %d: answer for %s, not %s\n", i, m[i], moves[i] > "/dev/stderr"; exit 2 }
			if (s[i] != want[i]) { printf "DIFFER line %d: %s file %s solver %s\n", i, moves[i], want[i], s[i]; bad++ }
		}
		printf "checked=%d differed=%d\n", n, bad
		exit bad > 0
	}' "$file" "$got"
