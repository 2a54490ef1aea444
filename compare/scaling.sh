#!/usr/bin/env bash
# Thread scaling of both solvers, one run each: the empty 7x6 board and four 8x8 positions of 20
# stones (random play, c4solve random -size 8x8 -seed 49 -n 24 20, those of 2-20 s at one thread
# on a 2-core VM), at each thread count. Prints, per solve, the whole process's wall time (bash's
# time: his includes zeroing his table) and each solver's own time of the search and its nodes.
#
# Usage: compare/scaling.sh [-threads 1,2,4,8,16] C4SOLVE REFS
#
# REFS is compare/build.sh's OUTDIR, built with the same -threads for 7x6 and again with
# -size 8x8: stein-tT-g1 and stein-8x8-tT-g1. c4solve gets -tt 1024 on 7x6 and TT88 (MiB,
# default 2048) on 8x8: set it to his 8x8 table's size. To run on another machine, build c4solve
# with CGO_ENABLED=0 and his solver with -static.
set -euo pipefail
threads=1,2,4,8,16
if [ "${1:-}" = -threads ]; then threads=$2; shift 2; fi
[ $# = 2 ] || { sed -n 7p "$0" >&2; exit 2; }
c4=$1 refs=$2 tt88=${TT88:-2048}
pos88="47727634856134664867 43638532538262247725 63432756787261163763 75888735175371786388"
TIMEFORMAT=%R
nproc; grep -m1 "model name" /proc/cpuinfo || true
for th in ${threads//,/ }; do
	echo "== threads $th"
	for job in "7x6 -" $(for p in $pos88; do echo "8x8 $p"; done | tr ' ' ':'); do
		size=${job%%[ :]*} pos=${job#*[ :]}
		[ "$pos" = - ] && pos=""
		if [ "$size" = 7x6 ]; then flags=(-tt 1024) stein=$refs/stein-t$th-g1; else flags=(-size 8x8 -tt "$tt88") stein=$refs/stein-8x8-t$th-g1; fi
		w=$( { time "$c4" -nobook -threads "$th" -v "${flags[@]}" "$pos" >/tmp/scaling.c4 2>/tmp/scaling.err; } 2>&1 )
		echo "c4solve $size \"$pos\" wall=$w $(cat /tmp/scaling.c4) | $(grep nodes= /tmp/scaling.err)"
		w=$( { time echo "$pos" | "$stein" >/tmp/scaling.stein 2>&1; } 2>&1 )
		echo "stein   $size \"$pos\" wall=$w (moves score nodes expanded us) $(cat /tmp/scaling.stein)"
	done
done
