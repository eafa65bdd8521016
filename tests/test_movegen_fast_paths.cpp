// generate_legal's fast paths under the Circe family (check tests on bitboards, pins, the
// Mars and Assassin shortcuts, classic-square captures) against the reference that plays
// every pseudo-legal move and tests the check rule (generate_legal_by_make). Positions: every
// position of ../shared/reference/movelists.jsonl under its condition, and the positions
// reached from it by 12 seeded random games of 24 half-moves; at every node both lists must be
// the same moves.

#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_input.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"

namespace rebirth {
namespace {

namespace fs = std::filesystem;

// The moves of `list` as sorted texts (the text names the rebirth choices too).
std::vector<std::string> texts(const Position& pos, const MoveList& list) {
    std::vector<std::string> out;
    for (const Move& m : list) out.push_back(move_to_popeye(pos, m));
    std::sort(out.begin(), out.end());
    return out;
}

TEST(FastPaths, SameMovesAsPlayingEveryMove) {
    std::istringstream in(test::read_text(fs::path(REBIRTH_SHARED_DIR) / "reference" / "movelists.jsonl"));
    std::mt19937 rng(11);
    int nodes = 0, cases = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        if (j.contains("popeye_error")) continue;
        const std::string condition = j.at("condition");
        if (condition.empty()) continue;
        RuleSet rules = resolve_rules(parse_condition_words(condition, "movelists.jsonl"), "movelists.jsonl");
        SetupRules sr;
        sr.rules = &rules;
        Position start;
        try {
            start.set(parse_fen(j.at("fen").get<std::string>()), sr);
        } catch (const std::exception&) {
            continue;
        }
        ++cases;
        for (int game = 0; game < 12; ++game) {
            Position pos = start;
            for (int ply = 0; ply < 24; ++ply) {
                MoveList fast, slow;
                generate_legal(pos, fast);
                generate_legal_by_make(pos, slow);
                ASSERT_EQ(texts(pos, fast), texts(pos, slow))
                    << j.at("id") << " (" << condition << ") after " << ply << " random moves";
                ++nodes;
                if (fast.empty()) break;
                const Move m = fast[std::uniform_int_distribution<int>(0, fast.size() - 1)(rng)];
                UndoInfo u;
                pos.do_move(m, u);
            }
        }
    }
    EXPECT_GE(cases, 200);
    std::printf("%d positions under %d conditioned cases\n", nodes, cases);
}

}  // namespace
}  // namespace rebirth
