#!/usr/bin/env bash
# Builds the two reference solvers behind this directory's drivers, outside the repository.
#
# Usage: compare/build.sh [-threads 1,2] [-size WxH] PONS_CLONE STEIN_CLONE OUTDIR
#
# PONS_CLONE and STEIN_CLONE are clones of github.com/PascalPons/connect4 and
# github.com/ChristopheSteininger/c4. Writes OUTDIR/pons (pons.cpp) and, for each thread
# count T, OUTDIR/stein-tT-m64 and OUTDIR/stein-tT-g1 (steininger.cpp): Steininger's solver
# with T threads and a 64 MB or a 1 GB table, both compile-time settings of his. Needs g++ with
# C++20; takes about a minute. With -size WxH (not 7x6), his solver compiled for that board
# instead, as OUTDIR/stein-WxH-tT-m64 and -g1 (no Pons: his solver is 7x6 only); a board
# whose keys his 1 GB table cannot check gets 2 GB or 8 GB, the least that checks them (his
# entries keep log2(entries) bits of the key less): 2 GB for 8x8 and 9x7.
set -euo pipefail
threads=1,2 size=7x6
while [ $# -gt 0 ]; do
	case $1 in
	-threads) threads=$2; shift 2 ;;
	-size) size=$2; shift 2 ;;
	*) break ;;
	esac
done
width=${size%x*} height=${size#*x}
if [ $# != 3 ]; then
	sed -n 4,10p "$0" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
pons=$(cd "$1" && pwd)
stein=$(cd "$2" && pwd)
mkdir -p "$3"
out=$(cd "$3" && pwd)
for f in "$pons/Solver.cpp" "$stein/src/solver/settings.h"; do
	[ -r "$f" ] || { echo "build.sh: no $f: is that the right clone?" >&2; exit 2; }
done

prefix=stein
if [ "$size" = 7x6 ]; then
	g++ -std=c++17 -O3 -DNDEBUG -I"$pons" -o "$out/pons" "$here/pons.cpp" "$pons/Solver.cpp"
else
	prefix=stein-$size
fi

# Table entries: primes near 64 MB and 1 GB of entries (the table size must be odd there).
# His entries check the key with some bits of data and the table's index (by the Chinese
# remainder theorem): a board of many bits needs more entries, and gets the next size his
# solver compiles with (1 GB, 2 GB, then 8 GB: 8x8 and 9x7 need 2 GB).
tables="m64:8388617 g1:134217757"
for t in ${threads//,/ }; do
	for size in $tables; do
		work=$(mktemp -d)
		cp -r "$stein/src" "$work/"
		settings=$work/src/solver/settings.h
		sed -i "s/NUM_THREADS = [0-9]*;/NUM_THREADS = $t;/; s/NUM_TABLE_ENTRIES = [0-9]*;/NUM_TABLE_ENTRIES = ${size#*:};/" "$settings"
		sed -i "s/BOARD_WIDTH = [0-9]*;/BOARD_WIDTH = $width;/; s/BOARD_HEIGHT = [0-9]*;/BOARD_HEIGHT = $height;/" "$settings"
		if ! grep -q "NUM_THREADS = $t;" "$settings" || ! grep -q "NUM_TABLE_ENTRIES = ${size#*:};" "$settings"; then
			echo "build.sh: could not set the threads and table size in $2/src/solver/settings.h" >&2
			exit 1
		fi
		# The driver reports his interior nodes (those that searched a child), whose getter
		# is private: it is made public, a change of access only.
		stats=$work/src/solver/util/stats.h
		sed -i 's/^\( *\)unsigned long long get_num_interior_nodes()/\1public:\n\1unsigned long long get_num_interior_nodes()/' "$stats"
		grep -B1 "unsigned long long get_num_interior_nodes()" "$stats" | grep -q "public:" || { echo "build.sh: could not find get_num_interior_nodes in $2/src/solver/util/stats.h" >&2; exit 1; }
		entries=${size#*:}
		for bigger in 134217757 268435459 1073741827 none; do
			if g++ -std=c++20 -O3 -flto -DNDEBUG -I"$work/src" -o "$out/$prefix-t$t-${size%%:*}" \
				"$here/steininger.cpp" $(find "$work/src/solver" -name '*.cpp') -lpthread 2>"$work/err"; then
				break
			fi
			if [ "$bigger" = none ] || ! grep -q "static assertion failed" "$work/err"; then
				cat "$work/err" >&2
				exit 1
			fi
			[ "$bigger" -gt "$entries" ] || continue
			echo "build.sh: $size with $entries entries does not compile for $width x $height: $bigger" >&2
			sed -i "s/NUM_TABLE_ENTRIES = [0-9]*;/NUM_TABLE_ENTRIES = $bigger;/" "$settings"
			entries=$bigger
		done
		rm -rf "$work"
	done
done
ls -l "$out"
