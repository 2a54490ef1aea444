#!/usr/bin/env bash
# Builds the two reference solvers behind this directory's drivers, outside the repository.
#
# Usage: compare/build.sh [-threads 1,2] PONS_CLONE STEIN_CLONE OUTDIR
#
# PONS_CLONE and STEIN_CLONE are clones of github.com/PascalPons/connect4 and
# github.com/ChristopheSteininger/c4. Writes OUTDIR/pons (pons.cpp) and, for each thread
# count T, OUTDIR/stein-tT-m64 and OUTDIR/stein-tT-g1 (steininger.cpp): Steininger's solver
# with T threads and a 64 MB or a 1 GB table, both compile-time settings of his. Needs g++ with
# C++20; takes about a minute.
set -euo pipefail
threads=1,2
if [ "${1:-}" = -threads ]; then threads=$2; shift 2; fi
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

g++ -std=c++17 -O3 -DNDEBUG -I"$pons" -o "$out/pons" "$here/pons.cpp" "$pons/Solver.cpp"

# Table entries: primes near 64 MB and 1 GB of entries (the table size must be odd there).
for t in ${threads//,/ }; do
	for size in m64:8388617 g1:134217757; do
		work=$(mktemp -d)
		cp -r "$stein/src" "$work/"
		settings=$work/src/solver/settings.h
		sed -i "s/NUM_THREADS = [0-9]*;/NUM_THREADS = $t;/; s/NUM_TABLE_ENTRIES = [0-9]*;/NUM_TABLE_ENTRIES = ${size#*:};/" "$settings"
		if ! grep -q "NUM_THREADS = $t;" "$settings" || ! grep -q "NUM_TABLE_ENTRIES = ${size#*:};" "$settings"; then
			echo "build.sh: could not set the threads and table size in $2/src/solver/settings.h" >&2
			exit 1
		fi
		# The driver reports his interior nodes (those that searched a child), whose getter
		# is private: it is made public, a change of access only.
		stats=$work/src/solver/util/stats.h
		sed -i 's/^\( *\)unsigned long long get_num_interior_nodes()/\1public:\n\1unsigned long long get_num_interior_nodes()/' "$stats"
		grep -B1 "unsigned long long get_num_interior_nodes()" "$stats" | grep -q "public:" || { echo "build.sh: could not find get_num_interior_nodes in $2/src/solver/util/stats.h" >&2; exit 1; }
		g++ -std=c++20 -O3 -flto -DNDEBUG -I"$work/src" -o "$out/stein-t$t-${size%%:*}" \
			"$here/steininger.cpp" $(find "$work/src/solver" -name '*.cpp') -lpthread
		rm -rf "$work"
	done
done
ls -l "$out"
