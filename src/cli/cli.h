#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "rebirth/retro.h"
#include "rebirth/rules.h"

namespace rebirth::cli {

// Exit codes of every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadInput = 2;

struct PerftArgs {
    std::string fen;
    std::string file;
    int problem = 1;
    int depth = 0;
    bool divide = false;
    std::string condition;
    int threads = 0;
};

struct SolveArgs {
    std::string file;
    int threads = 0;
    bool regression = false;  // no solving times, as Popeye's -regression
    bool json = false;        // one JSON summary line per problem after its output
    bool pgn = false;         // proof games as PGN instead of Popeye's text
    double max_seconds = 0;   // time limit per problem (0: none)
    bool quiet = false;       // no progress heartbeat on stderr
};

struct RetroArgs {
    std::string fen;
    int last = 1;           // single moves asked
    std::string side;       // the side that moved last (w or b); empty: both tried
    int depth = 3;          // single moves looked further back to refute a last move
    std::string condition;  // Popeye condition words; empty: orthodox chess
    bool json = false;
    int threads = 0;  // 0: all cores
};

// Each command prints its results on stdout and its errors on stderr; returns the exit code.
// InputError propagates to main, which reports it with kExitBadInput.
int run_perft(const PerftArgs& args);
int run_solve(const SolveArgs& args);
int run_retro(const RetroArgs& args);

// Renderers of a retro answer: the text of `rebirth retro` (per side its count and its
// sequences, the last move first, then the verdict) and the solutions as JSON arrays of
// retractions in janko notation; n is the number of single moves asked.
std::string retro_text(const LastMovesAnswer& answer, int n, const RuleSet* rules);
nlohmann::json retro_solutions_json(const LastMovesAnswer& answer, const RuleSet* rules);
// Why retro analysis refuses `rules` (unmoves_supported is false).
std::string retro_unsupported(const RuleSet& rules);

}  // namespace rebirth::cli
