// c4solve's driver for Pascal Pons' solver (github.com/PascalPons/connect4), compiled against a
// clone of it by build.sh: one thread, its own table size, and no opening book (the search
// alone, as c4solve's -nobook).
//
// Input and output as steininger.cpp: "MOVES [anything]" lines in, "MOVES SCORE NODES -
// MICROSECONDS" lines out (Pons' solver counts no expanded nodes: "-"), "MOVES error 0 - 0" and
// exit status 1 for a line that is not a position in play.
#include <chrono>
#include <iostream>
#include <sstream>
#include <string>

#include "Solver.hpp"

using GameSolver::Connect4::Position;
using GameSolver::Connect4::Solver;

int main() {
    Solver solver;
    int status = 0;
    std::string line;
    for (int number = 1; std::getline(std::cin, line); number++) {
        std::string moves;
        std::istringstream(line) >> moves;
        Position pos;
        // play stops at the first illegal move or at one that wins: a finished game is refused.
        if (pos.play(moves) != moves.size() || pos.nbMoves() == Position::WIDTH * Position::HEIGHT) {
            std::cerr << "line " << number << ": \"" << moves << "\" is not a position in play\n";
            std::cout << moves << " error 0 - 0" << std::endl;
            status = 1;
            continue;
        }
        solver.reset();
        auto start = std::chrono::steady_clock::now();
        int score = solver.solve(pos);
        auto took = std::chrono::steady_clock::now() - start;
        std::cout << moves << ' ' << score << ' ' << solver.getNodeCount() << " - "
                  << std::chrono::duration_cast<std::chrono::microseconds>(took).count() << std::endl;
    }
    return status;
}
