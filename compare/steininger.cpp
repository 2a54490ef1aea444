// c4solve's driver for Christophe Steininger's solver (github.com/ChristopheSteininger/c4),
// compiled against a clone of it by build.sh. Its threads and table size are compile-time
// settings of that solver (src/solver/settings.h), which build.sh sets.
//
// Reads one position a line on standard input: the moves as 1-based columns ('1' to '9', then
// 'a' for the 10th and on, as c4solve names them on wider boards), then anything
// (a benchmark file's expected score is ignored); an empty line is the empty board. Solves each
// exactly from a cleared table and writes "MOVES SCORE NODES EXPANDED MICROSECONDS" on standard
// output, EXPANDED being its interior nodes (those that searched a child, c4solve's expanded
// nodes). A line that is not a position in play is reported on standard error with its number,
// written as "MOVES error 0 0 0" so that the output stays line for line with the input, and makes the
// exit status 1.
#include <chrono>
#include <iostream>
#include <sstream>
#include <string>

#include "solver/position.h"
#include "solver/solver.h"

// play plays the moves of a line; it reports whether all were legal and left the game in play.
static bool play(Position &pos, const std::string &moves) {
    for (char c : moves) {
        int col = c >= 'a' ? c - 'a' + 9 : c - '1';
        if (col < 0 || col >= BOARD_WIDTH || pos.is_game_over() || !pos.is_move_valid(col)) {
            return false;
        }
        pos.move(col);
    }
    return !pos.is_game_over();
}

int main() {
    Solver solver;
    int status = 0;
    std::string line;
    for (int number = 1; std::getline(std::cin, line); number++) {
        std::string moves;
        std::istringstream(line) >> moves;
        Position pos;
        if (!play(pos, moves)) {
            std::cerr << "line " << number << ": \"" << moves << "\" is not a position in play\n";
            std::cout << moves << " error 0 0 0" << std::endl;
            status = 1;
            continue;
        }
        solver.clear_state();
        auto start = std::chrono::steady_clock::now();
        int score = solver.solve_strong(pos);
        auto took = std::chrono::steady_clock::now() - start;
        const auto &stats = solver.get_merged_stats();
        std::cout << moves << ' ' << score << ' ' << stats.get_num_nodes() << ' ' << stats.get_num_interior_nodes() << ' '
                  << std::chrono::duration_cast<std::chrono::microseconds>(took).count() << std::endl;
    }
    return status;
}
