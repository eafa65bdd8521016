#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/retro.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"

namespace rebirth::cli {

std::string retro_text(const LastMovesAnswer& answer, int n, const RuleSet* rules) {
    std::string out;
    const bool single = n == 1;
    for (const LastMovesAnswer::Side& side : answer.sides) {
        const size_t count = side.sequences.size();
        out += std::string(side.moved_last == WHITE ? "White" : "Black") + " moved last: " + std::to_string(count);
        if (single)
            out += count == 1 ? " possible last move\n" : " possible last moves\n";
        else
            out += (count == 1 ? " possible sequence of " : " possible sequences of ") + std::to_string(n) +
                   " single moves\n";
        for (const std::vector<UnMove>& seq : side.sequences) {
            Setup p = side.position;
            for (const UnMove& u : seq) {
                out += "  " + janko_notation(p, u, rules);
                if (single) out += "  (" + last_move_type(p, u) + ")";
                p = retract(p, u);
            }
            out += "\n";
        }
    }
    return out + "verdict: " + answer.verdict() + "\n";
}

nlohmann::json retro_solutions_json(const LastMovesAnswer& answer, const RuleSet* rules) {
    nlohmann::json solutions = nlohmann::json::array();
    for (const LastMovesAnswer::Side& side : answer.sides)
        for (const std::vector<UnMove>& seq : side.sequences) {
            nlohmann::json texts = nlohmann::json::array();
            Setup p = side.position;
            for (const UnMove& u : seq) {
                texts.push_back(janko_notation(p, u, rules));
                p = retract(p, u);
            }
            solutions.push_back(texts);
        }
    return solutions;
}

// "What were the last N single moves?" (N = 1: "which was the last move?") on a FEN: each
// side asked (--side, or both as janko's type A asks) and its retraction sequences that
// possible_last_moves does not refute, the last move first (N = 1 also with its type).
int run_retro(const RetroArgs& args) {
    if (!args.side.empty() && args.side != "w" && args.side != "b")
        throw InputError("--side", 0, args.side, "the side that moved last is w or b");
    if (args.threads < 0) throw InputError("--threads", 0, std::to_string(args.threads), "threads must be 0 or more");
    const Setup diagram = parse_fen(args.fen, "--fen");
    RuleSet rules;
    if (!args.condition.empty()) {
        rules = resolve_rules(parse_condition_words(args.condition, "--condition"), "--condition", 0);
        if (!unmoves_supported(&rules)) throw InputError("--condition", 0, args.condition, retro_unsupported(rules));
    }
    const RuleSet* r = args.condition.empty() ? nullptr : &rules;
    std::optional<Color> mover;
    if (!args.side.empty()) mover = args.side == "w" ? WHITE : BLACK;
    const LastMovesAnswer answer = last_moves(diagram, args.last, mover, args.depth, r, args.threads);
    if (args.json) {
        nlohmann::json j{{"id", args.fen},
                         {"verdict", answer.verdict()},
                         {"solutions", retro_solutions_json(answer, r)},
                         {"side", args.side.empty() ? std::string("both") : args.side},
                         {"depth", args.depth},
                         {"condition", args.condition.empty() ? std::string("orthodox") : rules.describe()}};
        if (args.last != 1) j["last"] = args.last;
        std::cout << j.dump() << "\n";
    } else {
        std::cout << retro_text(answer, args.last, r);
    }
    return kExitOk;
}

std::string retro_unsupported(const RuleSet& rules) {
    return "retro analysis under " + rules.describe() +
           " is not supported yet (supported: orthodox, Circe with Relaxed, Strict or Assassin occupied squares, "
           "AntiCirce, MarsCirce; not yet AntiMarsCirce, Circe with AntiCirce, walk adapters, Parrain, Take&Make or "
           "Diagram squares)";
}

}  // namespace rebirth::cli
