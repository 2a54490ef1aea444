#!/usr/bin/env bash
# Checks the scores of a file of "moves score" lines (a published set, or a sample of a book
# from "c4solve book sample") with a reference solver built by compare/build.sh, and prints
# each line whose score differs as it comes, then the number checked and the number that
# differed. On standard error it says how far it is: a line at the start, then one every
# CHECK_EVERY seconds (default 10) while the solver answers.
#
# Usage: compare/check_scores.sh SOLVER FILE
#
#   SOLVER   OUTDIR/stein-t1-m64 (Steininger's) or OUTDIR/pons (Pons'), from compare/build.sh
#
# Exit status: 0 all agree, 1 some differ, 2 bad usage or a solver that failed.
set -euo pipefail
[ $# = 2 ] || { sed -n 8,11p "$0" >&2; exit 2; }
solver=$1 file=$2 every=${CHECK_EVERY:-10}
[ -x "$solver" ] || { echo "check_scores.sh: $solver is not an executable" >&2; exit 2; }
[ -r "$file" ] || { echo "check_scores.sh: cannot read $file" >&2; exit 2; }
mapfile -t lines < "$file"
n=${#lines[@]}
echo "check_scores.sh: $file: $n positions to check with $solver" >&2
# The drivers answer each line, in order, with "moves score nodes expanded microseconds",
# a line at a time; the last line read here is the solver's exit status.
exec 3< <("$solver" < "$file"; echo "exit $?")
i=0 bad=0 last=$SECONDS
while read -r m s _ <&3; do
	if [ "$m" = exit ]; then
		[ "$s" = 0 ] || { echo "check_scores.sh: $solver failed (exit status $s) after $i answers" >&2; exit 2; }
		break
	fi
	[ "$i" -lt "$n" ] || { echo "check_scores.sh: $n lines, more answers" >&2; exit 2; }
	read -r moves want _ <<< "${lines[i]}"
	i=$((i + 1))
	[ "$m" = "$moves" ] || { echo "check_scores.sh: line $i: answer for $m, not $moves" >&2; exit 2; }
	if [ "$s" != "$want" ]; then
		echo "DIFFER line $i: $moves file $want solver $s"
		bad=$((bad + 1))
	fi
	if [ $((SECONDS - last)) -ge "$every" ]; then
		last=$SECONDS
		echo "check_scores.sh: $i of $n checked, $bad differed, ${SECONDS}s" >&2
	fi
done
[ "$i" = "$n" ] || { echo "check_scores.sh: $n lines, $i answers" >&2; exit 2; }
echo "checked=$n differed=$bad"
[ "$bad" = 0 ] || exit 1
