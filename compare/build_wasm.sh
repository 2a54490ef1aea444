#!/usr/bin/env bash
# Builds Steininger's solver for WebAssembly, to compare with c4solve's web/ build.
#
# Usage: compare/build_wasm.sh STEIN_CLONE OUTDIR
#
# STEIN_CLONE is a clone of github.com/ChristopheSteininger/c4. Writes OUTDIR/stein-7x6.js and
# .wasm: steininger.cpp (this directory's driver) and his solver, 7x6, one thread, a 64 MB
# table, built by Emscripten (em++ -O3 -flto; Debian: apt-get install emscripten) for node:
#
#   head -20 testdata/random8.txt | node OUTDIR/stein-7x6.js    # "MOVES SCORE NODES EXPANDED MICROSECONDS" lines
#
# His worker always starts a std::thread, which WebAssembly without pthreads cannot; his UI's
# build uses pthreads (SharedArrayBuffer, cross-origin isolation). Here his copy's worker
# (parallel/worker.cpp) starts none, and Worker::start searches on the caller's thread, as
# Worker::work would: the search itself is his, unchanged. Takes about 30 s.
set -euo pipefail
if [ $# != 2 ]; then
	sed -n 4,8p "$0" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
stein=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
[ -r "$stein/src/solver/settings.h" ] || { echo "build_wasm.sh: no $stein/src/solver/settings.h: is that the right clone?" >&2; exit 2; }
command -v em++ >/dev/null || { echo "build_wasm.sh: no em++: install Emscripten (Debian: apt-get install emscripten)" >&2; exit 2; }
# Debian's em++ needs node's acorn from /usr/share/nodejs, where a node not from Debian does not look.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
cp -r "$stein/src" "$src/"
settings=$src/src/solver/settings.h
sed -i "s/NUM_THREADS = [0-9]*;/NUM_THREADS = 1;/; s/NUM_TABLE_ENTRIES = [0-9]*;/NUM_TABLE_ENTRIES = 8388617;/" "$settings"
sed -i "s/BOARD_WIDTH = [0-9]*;/BOARD_WIDTH = 7;/; s/BOARD_HEIGHT = [0-9]*;/BOARD_HEIGHT = 6;/" "$settings"
grep -q "NUM_THREADS = 1;" "$settings" && grep -q "NUM_TABLE_ENTRIES = 8388617;" "$settings" ||
	{ echo "build_wasm.sh: could not set $settings" >&2; exit 1; }
# The driver reads his interior-node count, as build.sh's builds do.
stats=$src/src/solver/util/stats.h
sed -i 's/^\( *\)unsigned long long get_num_interior_nodes()/\1public:\n\1unsigned long long get_num_interior_nodes()/' "$stats"
python3 - "$src/src/solver/parallel/worker.cpp" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
start = """    this->thread = std::thread(&Worker::work, this);
    set_thread_affinity(thread, id);
"""
notify = """    search->start();

    cond.notify_one();
"""
if s.count(start) != 1 or s.count(notify) != 1:
    sys.exit("build_wasm.sh: parallel/worker.cpp is not as expected")
s = s.replace(start, "#if !defined(__EMSCRIPTEN__) || defined(__EMSCRIPTEN_PTHREADS__)\n" + start + "#endif\n")
s = s.replace(notify, notify + """#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    // No worker thread: search here and now, as Worker::work would.
    lock.unlock();
    int score = search->search(pos, alpha, beta, score_jitter);
    is_searching = false;
    if (abs(score) != SEARCH_STOPPED) {
        result->notify_result(score);
    }
#endif
""")
open(p, "w").write(s)
PY
# WASM_ASYNC_COMPILATION=0: Emscripten 3.1's loader fetch()es the .wasm's path where fetch
# exists, as in node 18 and later; loaded synchronously, it reads the file.
em++ -std=c++20 -O3 -flto -DNDEBUG -sUSE_PTHREADS=0 -I"$src/src" -o "$out/stein-7x6.js" \
	"$here/steininger.cpp" $(find "$src/src/solver" -name '*.cpp' | sort) \
	-sENVIRONMENT=node -sNODERAWFS=1 -sWASM_BIGINT -sWASM_ASYNC_COMPILATION=0 \
	-sINITIAL_MEMORY=128MB -sALLOW_MEMORY_GROWTH=0
echo "build_wasm.sh: wrote $out/stein-7x6.js and .wasm"
