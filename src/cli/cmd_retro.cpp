#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/retro.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"

namespace rebirth::cli {

// "What were the last N single moves?" (N = 1: "which was the last move?"): each side asked
// (--side, or both as janko's type A asks) and its retraction sequences that
// possible_last_moves does not refute, the last move first (N = 1 also with its type); the
// verdict is `unique` (one sequence in all: proved, if the diagram is legal as a retro problem
// asserts), `none` (no side has one: the diagram is illegal, or has no such history, proved)
// or `unresolved` (several are left, none is proved to be possible).
int run_retro(const RetroArgs& args) {
    if (!args.side.empty() && args.side != "w" && args.side != "b")
        throw InputError("--side", 0, args.side, "the side that moved last is w or b");
    const Setup diagram = parse_fen(args.fen, "--fen");
    RuleSet rules;
    if (!args.condition.empty()) {
        rules = resolve_rules(parse_condition_words(args.condition, "--condition"), "--condition", 0);
        if (!unmoves_supported(&rules))
            throw InputError("--condition", 0, args.condition,
                             "retro analysis under " + rules.describe() +
                                 " is not supported yet (supported: orthodox, Circe with Relaxed, Strict or "
                                 "Assassin occupied squares, AntiCirce, MarsCirce; not yet AntiMarsCirce, "
                                 "Circe with AntiCirce, walk adapters, Parrain, Take&Make or Diagram squares)");
    }
    const RuleSet* r = args.condition.empty() ? nullptr : &rules;
    const bool single = args.last == 1;
    std::vector<Color> movers;
    if (args.side != "b") movers.push_back(WHITE);
    if (args.side != "w") movers.push_back(BLACK);
    nlohmann::json solutions = nlohmann::json::array();
    int count = 0;
    for (Color mover : movers) {
        Setup s = diagram;
        s.side_to_move = ~mover;
        std::vector<std::vector<UnMove>> seqs;
        if (single)
            for (const UnMove& u : possible_last_moves(s, args.depth, r)) seqs.push_back({u});
        else
            seqs = possible_last_moves(s, args.last, args.depth, r);
        if (!args.json) {
            std::cout << (mover == WHITE ? "White" : "Black") << " moved last: " << seqs.size();
            if (single)
                std::cout << (seqs.size() == 1 ? " possible last move" : " possible last moves") << "\n";
            else
                std::cout << (seqs.size() == 1 ? " possible sequence" : " possible sequences") << " of " << args.last
                          << " single moves\n";
        }
        for (const std::vector<UnMove>& seq : seqs) {
            nlohmann::json texts = nlohmann::json::array();
            Setup p = s;
            std::string line;
            for (const UnMove& u : seq) {
                const std::string text = janko_notation(p, u, r);
                texts.push_back(text);
                line += "  " + text;
                if (single) line += "  (" + last_move_type(p, u) + ")";
                p = retract(p, u);
            }
            if (!args.json) std::cout << line << "\n";
            solutions.push_back(texts);
        }
        count += static_cast<int>(seqs.size());
    }
    const std::string verdict = count == 0 ? "none" : count == 1 ? "unique" : "unresolved";
    if (args.json) {
        nlohmann::json j{{"id", args.fen},
                         {"verdict", verdict},
                         {"solutions", solutions},
                         {"side", args.side.empty() ? std::string("both") : args.side},
                         {"depth", args.depth},
                         {"condition", args.condition.empty() ? std::string("orthodox") : rules.describe()}};
        if (!single) j["last"] = args.last;
        std::cout << j.dump() << "\n";
    } else {
        std::cout << "verdict: " << verdict << "\n";
    }
    return kExitOk;
}

}  // namespace rebirth::cli
