#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rebirth/claims.h"
#include "rebirth/types.h"

namespace rebirth::cli {

// Exit codes of every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitUnsound = 3;     // verify: a claim is cooked or has a line that is no solution
inline constexpr int kExitUnverified = 4;  // verify: a claim could not be decided (and none is unsound)

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
    int threads = 0;              // 0: all cores
    int certify = 0;              // look for a proof game of at most this many half-moves per sequence (0: none)
    double certify_seconds = 10;  // time limit of each of those searches
    bool certify_long = false;    // orthodox: else a game of any length (proof_builder.h)
    std::string retractor;        // a defensive retractor's stipulation ("-2 & #1"); empty: last moves
    bool hoeg = false;            // the retractor's uncaptures decided by the other side (Høeg)
    std::string type;             // the retractor's type: proca, hoeg, klan or pacific (empty: proca, or --hoeg)
    bool no_forward_defence = false;
    double max_seconds = 0;  // the retractor's time limit (0: none)
};

struct LegalArgs {
    std::string fen;
    int depth = 3;        // single moves looked back to refute it
    double seconds = 10;  // time for the search of a game
    int threads = 0;      // 0: all cores (the variants of the constructive search at once)
    bool json = false;
    std::string frozen;    // squares of units marked frozen ("a8,e8")
    std::string promoted;  // squares of units marked promoted
};

// The squares of a list such as "a8,e8" or "a8 e8" (an option's value, or a JSON field:
// `source` names it in errors), each holding a unit of `board`. Throws InputError naming the
// word that is no square or an empty square.
Bitboard parse_marked_squares(const std::string& text, const std::string& source,
                              const std::array<Piece, SQUARE_NB>& board);

struct VerifyArgs {
    // Retro certificates (.json / .jsonl: the JSON lines of `rebirth retro --json --certify`),
    // or Popeye files each holding one problem followed by its claimed solution.
    std::vector<std::string> files;
    bool json = false;       // one JSON line per claimed problem
    int threads = 0;         // 0: all cores
    double max_seconds = 0;  // time limit per problem (0: none)
};

struct CookcheckArgs {
    std::vector<std::string> paths;  // Popeye files with claimed solutions, or directories of them (.inp)
    int threads = 0;                 // 0: all cores
    double max_seconds = 0;          // time limit per problem (0: none)
    std::string report;              // a JSON report file (.json); empty: none
    std::string journal;             // the finished results, kept for a resumed run; empty: none
};

// Each command prints its results on stdout and its errors on stderr; returns the exit code.
// InputError propagates to main, which reports it with kExitBadInput.
int run_perft(const PerftArgs& args);
int run_solve(const SolveArgs& args);
int run_retro(const RetroArgs& args);
int run_legal(const LegalArgs& args);
int run_verify(const VerifyArgs& args);

int run_cookcheck(const CookcheckArgs& args);

}  // namespace rebirth::cli
