#!/usr/bin/env bash
# Times c4solve against Steininger's solver (and with -pons against Pons' too) on the same
# positions, one program at a time, in one run, and prints a markdown table: per set and
# thread count, the mean solve time of each, the ratio c4solve / other (below 1: c4solve is
# faster), the mean nodes (each solver counts its own way: compare them as a trend), the mean
# expanded nodes (those that searched a child: counted alike by c4solve and Steininger's
# solver; Pons' counts none) and the answers that differ from the file's scores.
#
# Usage: compare/side_by_side.sh [-threads 1,2] [-repeat R] [-pons] [-size WxH [-from0]] [-tt MiB] C4SOLVE OUTDIR SET[:N] ...
#
#   C4SOLVE     a built c4solve; OUTDIR: what compare/build.sh wrote (with the same -threads)
#   SET[:N]     a file of "moves score" lines, or the name of a published set in
#               testdata/benchmarks (Test_L1_R2), its first N lines; "empty" is the empty
#               board with 1 GB tables
#   -repeat R   run the solvers in turn R times per row and average: these machines drift
#               by tens of percent within minutes
#   -pons       also Pons' solver, at one thread only (it has no threads); not on "empty"
#   -size WxH   another board than 7x6: c4solve -size WxH against Steininger's solver compiled
#               for it (compare/build.sh -size WxH); "empty" expects the board's score from
#               testdata/sizes/results.txt
#   -from0      the sets' columns are numbered from 0, as in Steininger's tst/data files
#   -tt MiB     c4solve's table on the sets (default 64); give it what his build has where
#               compare/build.sh gave his more than 64 MB (2048 for 8x8 and 9x7, 1024 for 10x6)
#
# Every solver searches without an opening book, from a cleared table for each position,
# 64 MB tables (1 GB for the empty board). Every time is the solver's own timing of its
# searches, their setup left out for both (the table's allocation, and Steininger's zeroing of
# all of it before he starts, about 3 s a GB): a whole process of his with a table larger than
# the job measures mostly that. Run it with nothing else running.
set -euo pipefail
usage() { sed -n 8,25p "$0" >&2; exit 2; }
threads=1,2 repeat=1 pons=0 size=7x6 from0=0 tt=64
while [ $# -gt 0 ]; do
	case $1 in
	-threads) threads=$2; shift 2 ;;
	-repeat) repeat=$2; shift 2 ;;
	-pons) pons=1; shift ;;
	-size) size=$2; shift 2 ;;
	-from0) from0=1; shift ;;
	-tt) tt=$2; shift 2 ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 3 ] || usage
c4=$1 out=$2
shift 2
published=$(cd "$(dirname "$0")/../testdata/benchmarks" && pwd)
[ -x "$c4" ] || { echo "side_by_side.sh: $c4 is not an executable" >&2; exit 2; }
stein=stein emptyscore=1
if [ "$size" != 7x6 ]; then
	stein=stein-$size
	[ "$pons" = 0 ] || { echo "side_by_side.sh: -pons: Pons' solver plays 7x6 only" >&2; exit 2; }
	emptyscore=$(awk -v z="$size" '$1 == z { print $4 }' "$(dirname "$0")/../testdata/sizes/results.txt")
fi
c4size=()
if [ "$size" != 7x6 ]; then c4size=(-size "$size"); fi
for t in ${threads//,/ }; do
	for f in "$stein-t$t-m64" "$stein-t$t-g1"; do
		[ -x "$out/$f" ] || { echo "side_by_side.sh: no $out/$f: run compare/build.sh -threads $threads -size $size" >&2; exit 2; }
	done
done
if [ "$pons" = 1 ] && [ ! -x "$out/pons" ]; then
	echo "side_by_side.sh: no $out/pons: run compare/build.sh" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# mean FILE prints the means of the first three columns of FILE's lines and the sum of the fourth.
mean() { awk '{ s += $1; n += $2; e += $3; w += $4 } END { printf "%.6f %.0f %.0f %d\n", s / NR, n / NR, e / NR, w }' "$1"; }

# csv COLUMN FILE prints COLUMN of the one data row of a c4solve bench CSV file.
csv() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$2"; }

# driver BINARY IN prints "mean_seconds mean_nodes mean_expanded wrong" for a driver's run over IN, whose
# lines carry the expected scores ("moves score"; none for the empty board).
driver() {
	"$1" <"$2" >"$tmp/driver.out" 2>"$tmp/driver.err" || true
	[ "$(wc -l <"$tmp/driver.out")" = "$(wc -l <"$2")" ] || { cat "$tmp/driver.err" >&2; echo "side_by_side.sh: $1 stopped early" >&2; exit 1; }
	paste -d' ' "$2" "$tmp/driver.out" | awk -v empty="$3" -v emptyscore="$emptyscore" '
		{ n = NF; moves = $1; want = (empty ? emptyscore : $2); got = $(n - 3); nodes += $(n - 2); expanded += $(n - 1); us += $n; k++
		  if (got != want) wrong++ }
		END { printf "%.6f %.0f %.0f %d\n", us / k / 1e6, nodes / k, expanded / k, wrong }'
}

# c4 THREADS IN prints "mean_seconds mean_nodes mean_expanded wrong" for c4solve.
c4run() {
	if [ "$3" = 1 ]; then
		# -v's time= is the solve's own (Go's duration: 1.5s, 830ms, 12µs).
		local got secs
		got=$("$c4" "${c4size[@]}" -nobook -threads "$1" -tt 1024 -v "" 2>"$tmp/c4.err" | awk '{ print $NF }')
		secs=$(grep -oE 'time=[0-9.]+(h|m|s|ms|µs|us|ns)+' "$tmp/c4.err" | tail -1 | cut -d= -f2 |
			awk '{ v = $0; sub(/[^0-9.].*/, "", v); u = substr($0, length(v) + 1)
			       if (u == "ms") v /= 1e3; else if (u == "µs" || u == "us") v /= 1e6; else if (u == "ns") v /= 1e9
			       else if (u != "s") { v = -1 }   # minutes and hours: parsed below
			       print v }')
		if [ "$secs" = -1 ]; then
			secs=$(grep -oE 'time=[0-9hms.]+' "$tmp/c4.err" | tail -1 | cut -d= -f2 |
				awk '{ t = 0; s = $0; while (match(s, /^[0-9.]+[hms]/)) { v = substr(s, 1, RLENGTH - 1); u = substr(s, RLENGTH, 1)
				       t += v * (u == "h" ? 3600 : u == "m" ? 60 : 1); s = substr(s, RLENGTH + 1) } print t }')
		fi
		awk -v secs="$secs" -v got="$got" -v want="$emptyscore" -v nodes="$(grep -oE ' nodes=[0-9]+' "$tmp/c4.err" | tail -1 | cut -d= -f2)" \
			-v expanded="$(grep -oE 'expanded=[0-9]+' "$tmp/c4.err" | tail -1 | cut -d= -f2)" \
			'BEGIN { printf "%.6f %.0f %.0f %d\n", secs, nodes, expanded, got != want }'
		return
	fi
	rm -f "$tmp/c4.csv"
	"$c4" bench "${c4size[@]}" -nobook -threads "$1" -tt "$tt" -o "$tmp/c4.csv" "$2" >/dev/null 2>"$tmp/c4.err" || true
	[ -s "$tmp/c4.csv" ] || { cat "$tmp/c4.err" >&2; echo "side_by_side.sh: c4solve bench failed" >&2; exit 1; }
	echo "$(csv mean_s "$tmp/c4.csv") $(csv mean_nodes "$tmp/c4.csv") $(csv mean_expanded "$tmp/c4.csv") $(csv mismatches "$tmp/c4.csv")"
}

if [ "$pons" = 1 ]; then
	echo "| set | positions | threads | c4solve mean | Steininger mean | ratio | Pons mean | ratio | c4solve nodes | Steininger nodes | Pons nodes | c4solve expanded | Steininger expanded | ratio | wrong (c4solve / Steininger / Pons) |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
else
	echo "| set | positions | threads | c4solve mean | Steininger mean | ratio | c4solve nodes | Steininger nodes | c4solve expanded | Steininger expanded | ratio | wrong (c4solve / Steininger) |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
fi
for spec in "$@"; do
	set=${spec%%:*} lines=${spec#*:}
	[ "$lines" = "$spec" ] && lines=0
	empty=0 table=m64
	if [ "$set" = empty ]; then
		empty=1 table=g1
		echo "" >"$tmp/in"
	else
		f=$set
		[ -f "$f" ] || f=$published/$set
		[ -r "$f" ] || { echo "side_by_side.sh: no file $set, nor $published/$set" >&2; exit 2; }
		if [ "$lines" -gt 0 ]; then head -n "$lines" "$f" >"$tmp/in"; else cp "$f" "$tmp/in"; fi
		if [ "$from0" = 1 ]; then
			# Columns from 0 to c4solve's names, from 1 ('1' to '9', then 'a').
			awk '{ m = ""; for (i = 1; i <= length($1); i++) m = m substr("123456789abcdefghijklmnop", index("0123456789abcdefghijklmno", substr($1, i, 1)), 1); $1 = m; print }' "$tmp/in" >"$tmp/in1"
			mv "$tmp/in1" "$tmp/in"
		fi
	fi
	n=$(wc -l <"$tmp/in")
	for t in ${threads//,/ }; do
		runpons=$((pons == 1 && t == 1 && empty == 0))
		: >"$tmp/c4.all"; : >"$tmp/st.all"; : >"$tmp/po.all"
		for _ in $(seq "$repeat"); do
			c4run "$t" "$tmp/in" "$empty" >>"$tmp/c4.all"
			driver "$out/$stein-t$t-$table" "$tmp/in" "$empty" >>"$tmp/st.all"
			if [ "$runpons" = 1 ]; then driver "$out/pons" "$tmp/in" 0 >>"$tmp/po.all"; fi
		done
		read -r c4s c4n c4e c4w < <(mean "$tmp/c4.all")
		read -r sts stn ste stw < <(mean "$tmp/st.all")
		expanded=$(printf '%.0f | %.0f | %.2f' "$c4e" "$ste" "$(awk -v a="$c4e" -v b="$ste" 'BEGIN { print (b > 0 ? a / b : 0) }')")
		row=$(printf '| %s | %d | %d | %.4g s | %.4g s | %.2f |' "$(basename "$set")" "$n" "$t" "$c4s" "$sts" \
			"$(awk -v a="$c4s" -v b="$sts" 'BEGIN { print a / b }')")
		if [ "$pons" = 1 ]; then
			if [ "$runpons" = 1 ]; then
				read -r pos pon _ pow < <(mean "$tmp/po.all")
				row+=$(printf ' %.4g s | %.2f | %.0f | %.0f | %.0f | %s | %d / %d / %d |' "$pos" \
					"$(awk -v a="$c4s" -v b="$pos" 'BEGIN { print a / b }')" "$c4n" "$stn" "$pon" "$expanded" "$c4w" "$stw" "$pow")
			else
				row+=$(printf ' - | - | %.0f | %.0f | - | %s | %d / %d / - |' "$c4n" "$stn" "$expanded" "$c4w" "$stw")
			fi
		else
			row+=$(printf ' %.0f | %.0f | %s | %d / %d |' "$c4n" "$stn" "$expanded" "$c4w" "$stw")
		fi
		echo "$row"
	done
done
