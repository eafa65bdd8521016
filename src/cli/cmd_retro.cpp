#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/retro.h"
#include "rebirth/retro_problem.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"

namespace rebirth::cli {

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
                         {"solutions", retro_solutions(answer, r)},
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

}  // namespace rebirth::cli
