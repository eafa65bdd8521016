#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli.h"
#include "rebirth/error.h"
#include "rebirth/retro.h"
#include "rebirth/setup.h"

namespace rebirth::cli {

namespace {

// run_retro for --last N > 1: each sequence written as its forward moves, the last played
// first, with the side that made it.
int run_retro_sequences(const RetroArgs& args) {
    if (!args.side.empty() && args.side != "w" && args.side != "b")
        throw InputError("--side", 0, args.side, "the side that moved last is w or b");
    const Setup diagram = parse_fen(args.fen, "--fen");
    std::vector<Color> movers;
    if (args.side != "b") movers.push_back(WHITE);
    if (args.side != "w") movers.push_back(BLACK);
    nlohmann::json solutions = nlohmann::json::array();
    int count = 0;
    for (Color mover : movers) {
        Setup s = diagram;
        s.side_to_move = ~mover;
        const std::vector<std::vector<UnMove>> seqs = possible_last_moves(s, args.last, args.depth);
        if (!args.json)
            std::cout << (mover == WHITE ? "White" : "Black") << " moved last: " << seqs.size()
                      << (seqs.size() == 1 ? " possible sequence" : " possible sequences") << " of " << args.last
                      << " single moves\n";
        for (const std::vector<UnMove>& seq : seqs) {
            nlohmann::json texts = nlohmann::json::array();
            Setup p = s;
            std::string line;
            for (const UnMove& u : seq) {
                const std::string text = janko_notation(p, u);
                texts.push_back(text);
                line += "  " + text;
                p = retract(p, u);
            }
            if (!args.json) std::cout << line << "\n";
            solutions.push_back(texts);
        }
        count += static_cast<int>(seqs.size());
    }
    const std::string verdict = count == 0 ? "none" : count == 1 ? "unique" : "unresolved";
    if (args.json) {
        nlohmann::json j{{"id", args.fen},         {"verdict", verdict},
                         {"solutions", solutions}, {"side", args.side.empty() ? std::string("both") : args.side},
                         {"last", args.last},      {"depth", args.depth}};
        std::cout << j.dump() << "\n";
    } else {
        std::cout << "verdict: " << verdict << "\n";
    }
    return kExitOk;
}

}  // namespace

// "What were the last N single moves?" (N = 1: "which was the last move?"): each side asked
// (--side, or both as janko's type A asks) and its retraction sequences that
// possible_last_moves does not refute; the verdict is `unique` (one sequence in all: proved,
// if the diagram is legal as a retro problem asserts), `none` (no side has one: the diagram
// is illegal, or has no such history, proved) or `unresolved` (several are left, none is
// proved to be possible).
int run_retro(const RetroArgs& args) {
    if (args.last > 1) return run_retro_sequences(args);
    if (!args.side.empty() && args.side != "w" && args.side != "b")
        throw InputError("--side", 0, args.side, "the side that moved last is w or b");
    const Setup diagram = parse_fen(args.fen, "--fen");
    std::vector<Color> movers;
    if (args.side != "b") movers.push_back(WHITE);
    if (args.side != "w") movers.push_back(BLACK);
    nlohmann::json solutions = nlohmann::json::array();
    int count = 0;
    for (Color mover : movers) {
        Setup s = diagram;
        s.side_to_move = ~mover;
        const std::vector<UnMove> moves = possible_last_moves(s, args.depth);
        if (!args.json) {
            std::cout << (mover == WHITE ? "White" : "Black") << " moved last: " << moves.size()
                      << (moves.size() == 1 ? " possible last move" : " possible last moves") << "\n";
        }
        for (const UnMove& u : moves) {
            const std::string text = janko_notation(s, u);
            if (!args.json) std::cout << "  " << text << "  (" << last_move_type(s, u) << ")\n";
            solutions.push_back(nlohmann::json::array({text}));
        }
        count += static_cast<int>(moves.size());
    }
    const std::string verdict = count == 0 ? "none" : count == 1 ? "unique" : "unresolved";
    if (args.json) {
        nlohmann::json j{{"id", args.fen},
                         {"verdict", verdict},
                         {"solutions", solutions},
                         {"side", args.side.empty() ? std::string("both") : args.side},
                         {"depth", args.depth}};
        std::cout << j.dump() << "\n";
    } else {
        std::cout << "verdict: " << verdict << "\n";
    }
    return kExitOk;
}

}  // namespace rebirth::cli
